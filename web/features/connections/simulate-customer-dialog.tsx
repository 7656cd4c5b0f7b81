// The demo's customer (WHATSAPP_SIMULATOR): on a simulated connection an admin writes as a customer,
// so that a newcomer can try the inbox end to end without a phone or the API. Each message goes
// through POST /api/simulator/{id}/inbound, the same way a real one arrives; the dialog stays open for
// the next one.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import type { Connection } from './connection.ts'
import { showRequestError } from './request-error.ts'

/** A number of the simulated network (10 to 15 digits; the simulator knows every such number). */
const DEMO_CUSTOMER = '5511999990001'

export function SimulateCustomerDialog({ connection, isOpen, onOpenChange }: { connection: Connection | undefined; isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  const { t, i18n } = useLingui()
  const [number, setNumber] = useState(DEMO_CUSTOMER)
  const [name, setName] = useState('Ana Souza')
  const [body, setBody] = useState('')
  const [errors, setErrors] = useState<{ number?: string; body?: string }>({})
  const [sending, setSending] = useState(false)
  const connectionName = connection?.name ?? ''

  const send = async () => {
    const digits = number.replace(/\D/g, '')
    const problems = {
      number: digits.length < 10 || digits.length > 15 ? t`Enter 10 to 15 digits, with the country and area code.` : undefined,
      body: body.trim() === '' ? t`Write the customer's message.` : undefined,
    }
    setErrors(problems)
    if (!connection || problems.number || problems.body) return
    setSending(true)
    const { error } = await api.simulator({ whatsappId: connection.id }).inbound.post({ from: digits, name: name.trim() || undefined, body })
    setSending(false)
    if (error) {
      showRequestError(i18n, error)
      return
    }
    setBody('')
    showToast('success', t`Sent as the customer: the ticket is in the inbox.`)
  }

  return (
    <Dialog title={t`Write as a customer on ${connectionName}`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <p className="simulate-hint">{t`A simulated WhatsApp: the message arrives as if this customer had written from a phone.`}</p>
      <div className="form-grid">
        <TextField label={t`Customer's number`} value={number} onChange={setNumber} error={errors.number} inputMode="tel" />
        <TextField label={t`Customer's name`} value={name} onChange={setName} maxLength={100} />
        <TextAreaField label={t`Message`} value={body} onChange={setBody} error={errors.body} maxLength={4000} />
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Close`}
        </Button>
        <Button onPress={() => void send()} isPending={sending}>
          {t`Send as the customer`}
        </Button>
      </div>
    </Dialog>
  )
}
