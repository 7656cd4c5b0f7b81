// The checkout's steps (§2, §5): 0 the payer's data, 1 the plan with users and connections, 2 the
// review; and the card stage. Forms only: the dialog keeps the state and moves between them.
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Select } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { formatCalendarDate, formatMoney } from '../../i18n/format.ts'
import type { Subscription } from './billing-types.ts'
import type { CardData, CheckoutData, FieldErrors } from './checkout-rules.ts'

const billedLabels: Record<string, ReturnType<typeof msg>> = {
  MENSAL: msg`Billed monthly`,
  BIMESTRAL: msg`Billed every 2 months`,
  TRIMESTRAL: msg`Billed every 3 months`,
  SEMESTRAL: msg`Billed every 6 months`,
  ANUAL: msg`Billed yearly`,
}

type Change<Shape> = <Key extends keyof Shape>(key: Key, value: Shape[Key]) => void

function useErrorText() {
  const { t } = useLingui()
  return (error: 'required' | 'format' | undefined, formatText?: string) => (error === 'required' ? t`Required` : error === 'format' ? (formatText ?? t`Invalid format`) : undefined)
}

export function DataStep({ data, errors, onChange }: { data: CheckoutData; errors: FieldErrors<keyof CheckoutData>; onChange: Change<CheckoutData> }) {
  const { t } = useLingui()
  const errorText = useErrorText()
  return (
    <div className="checkout-grid">
      <TextField label={t`First name`} name="firstName" value={data.firstName} onChange={(value) => onChange('firstName', value)} error={errorText(errors.firstName)} isRequired maxLength={100} />
      <TextField label={t`Last name`} name="lastName" value={data.lastName} onChange={(value) => onChange('lastName', value)} maxLength={100} />
      <TextField label={t`Address`} name="address2" value={data.address2} onChange={(value) => onChange('address2', value)} error={errorText(errors.address2)} isRequired maxLength={200} />
      <TextField label={t`City`} name="city" value={data.city} onChange={(value) => onChange('city', value)} error={errorText(errors.city)} isRequired maxLength={100} />
      <TextField label={t({ message: 'State', context: 'address' })} name="state" value={data.state} onChange={(value) => onChange('state', value)} maxLength={100} />
      <TextField
        label={t`Zip code`}
        name="zipcode"
        value={data.zipcode}
        onChange={(value) => onChange('zipcode', value)}
        error={errorText(errors.zipcode, t`Use 00000-000 (or a US ZIP code)`)}
        isRequired
        maxLength={10}
      />
      <Select
        label={t`Country`}
        name="country"
        options={[
          { id: 'BR', label: t`Brazil` },
          { id: 'usa', label: t`United States` },
        ]}
        value={data.country}
        onChange={(value) => onChange('country', value === 'usa' ? 'usa' : 'BR')}
        isRequired
      />
    </div>
  )
}

export type PlanChoice = { users: string; connections: string }

export function PlanStep({ subscription, amount, choice, onChange }: { subscription: Subscription | null; amount: number; choice: PlanChoice; onChange: Change<PlanChoice> }) {
  const { t, i18n } = useLingui()
  return (
    <div className="checkout-plan">
      <div className="checkout-plan-card">
        <span className="checkout-plan-name">{subscription?.plan?.name ?? t`Your plan`}</span>
        <span className="checkout-plan-price">{formatMoney(amount, i18n.locale)}</span>
        <span className="user-muted">{subscription && billedLabels[subscription.recurrence] ? i18n._(billedLabels[subscription.recurrence]!) : ''}</span>
      </div>
      <div className="checkout-grid">
        <TextField label={t`Users`} name="users" type="number" inputMode="numeric" value={choice.users} onChange={(value) => onChange('users', value)} />
        <TextField label={t`Connections`} name="connections" type="number" inputMode="numeric" value={choice.connections} onChange={(value) => onChange('connections', value)} />
      </div>
    </div>
  )
}

export function ReviewStep({ data, choice, amount, dueDate, subscription }: { data: CheckoutData; choice: PlanChoice; amount: number; dueDate: string | null; subscription: Subscription | null }) {
  const { t, i18n } = useLingui()
  const rows: [string, string][] = [
    [t`Name`, [data.firstName, data.lastName].filter(Boolean).join(' ')],
    [t`Address`, [data.address2, data.city, data.state, data.zipcode, data.country === 'BR' ? t`Brazil` : t`United States`].filter(Boolean).join(', ')],
    [t`Plan`, subscription?.plan?.name ?? '—'],
    [t`Users`, choice.users],
    [t`Connections`, choice.connections],
    [t`Billing e-mail`, subscription?.email ?? '—'],
    ...(dueDate ? ([[t`Due date`, formatCalendarDate(dueDate)]] as [string, string][]) : []),
    [t`Total`, formatMoney(amount, i18n.locale)],
  ]
  return (
    <dl className="checkout-review">
      {rows.map(([term, value]) => (
        <div key={term} className="checkout-review-row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

type CardErrors = FieldErrors<keyof CardData | 'lastName' | 'state'>

export function CardStep({ card, data, errors, onCard, onData }: { card: CardData; data: CheckoutData; errors: CardErrors; onCard: Change<CardData>; onData: Change<CheckoutData> }) {
  const { t } = useLingui()
  const errorText = useErrorText()
  return (
    <div className="checkout-grid">
      <TextField label={t`Last name`} name="lastName" value={data.lastName} onChange={(value) => onData('lastName', value)} error={errorText(errors.lastName)} isRequired maxLength={100} />
      <TextField label={t({ message: 'State', context: 'address' })} name="state" value={data.state} onChange={(value) => onData('state', value)} error={errorText(errors.state)} isRequired maxLength={100} />
      <TextField label={t`Name on card`} name="nameOnCard" autoComplete="cc-name" value={card.nameOnCard} onChange={(value) => onCard('nameOnCard', value)} error={errorText(errors.nameOnCard)} isRequired maxLength={100} />
      <TextField
        label={t`Card number`}
        name="cardNumber"
        autoComplete="cc-number"
        inputMode="numeric"
        value={card.cardNumber}
        onChange={(value) => onCard('cardNumber', value)}
        error={errorText(errors.cardNumber, t`Check the card number`)}
        isRequired
        maxLength={23}
      />
      <TextField
        label={t`Expiry (MM/YY)`}
        name="expiry"
        autoComplete="cc-exp"
        value={card.expiry}
        onChange={(value) => onCard('expiry', value)}
        error={errorText(errors.expiry, t`Use MM/YY, not in the past`)}
        isRequired
        maxLength={5}
      />
      <TextField label={t`CVV`} name="cvv" autoComplete="cc-csc" inputMode="numeric" value={card.cvv} onChange={(value) => onCard('cvv', value)} error={errorText(errors.cvv, t`3 or 4 digits`)} isRequired maxLength={4} />
    </div>
  )
}
