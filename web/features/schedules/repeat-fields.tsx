// The follow-up options of the schedule dialog: repeat daily, weekly or monthly (in the company's time
// zone, from the first sending time) until a day or a number of times, and "cancel if the customer
// replies first". The draft's rules (checkRepeatDraft) and its wire form (repeatToApi) are in
// repeat-rules.ts, tested beside it.
import { useLingui } from '@lingui/react/macro'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { MAX_REPEAT_COUNT, type RepeatDraft, type RepeatEnd, type RepeatFrequency } from './repeat-rules.ts'

export type RepeatErrors = { recurrence?: string; recurrenceCount?: string; recurrenceUntil?: string }

export type RepeatFieldsProps = {
  value: RepeatDraft
  onChange: (value: RepeatDraft) => void
  errors: RepeatErrors
  isReadOnly: boolean
}

export function RepeatFields({ value, onChange, errors, isReadOnly }: RepeatFieldsProps) {
  const { t } = useLingui()
  const set = (changes: Partial<RepeatDraft>) => onChange({ ...value, ...changes })
  const frequencies: { id: RepeatFrequency; label: string }[] = [
    { id: 'none', label: t`Does not repeat` },
    { id: 'daily', label: t`Daily` },
    { id: 'weekly', label: t`Weekly` },
    { id: 'monthly', label: t`Monthly` },
  ]
  const ends: { id: RepeatEnd; label: string }[] = [
    { id: 'count', label: t`After a number of times` },
    { id: 'until', label: t`On a day` },
  ]
  return (
    <fieldset className="schedule-repeat" disabled={isReadOnly}>
      <Select
        label={t`Repeat`}
        name="recurrence"
        options={frequencies}
        value={value.frequency}
        onChange={(key) => set({ frequency: (key ?? 'none') as RepeatFrequency })}
        error={errors.recurrence}
        isDisabled={isReadOnly}
      />
      {value.frequency === 'none' ? null : (
        <div className="schedule-repeat-end">
          <Select label={t`Ends`} name="recurrenceEnd" options={ends} value={value.end} onChange={(key) => set({ end: (key ?? 'count') as RepeatEnd })} isDisabled={isReadOnly} />
          {value.end === 'count' ? (
            <TextField
              label={t`Times`}
              name="recurrenceCount"
              inputMode="numeric"
              description={t`From 2 to ${MAX_REPEAT_COUNT}.`}
              value={value.count}
              onChange={(count) => set({ count })}
              error={errors.recurrenceCount}
              isReadOnly={isReadOnly}
            />
          ) : (
            <TextField
              label={t`Last day`}
              name="recurrenceUntil"
              type="date"
              value={value.untilDay}
              onChange={(untilDay) => set({ untilDay })}
              error={errors.recurrenceUntil}
              isReadOnly={isReadOnly}
            />
          )}
        </div>
      )}
      <SwitchField isSelected={value.cancelOnReply} onChange={(cancelOnReply) => set({ cancelOnReply })} isDisabled={isReadOnly} description={t`A message from the contact after this is scheduled and before it goes out cancels it (and the repetitions still to come).`}>
        {t`Cancel if the customer replies first`}
      </SwitchField>
    </fieldset>
  )
}
