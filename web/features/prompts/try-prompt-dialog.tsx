// The "try it" panel (issue 14): an admin writes as a customer would and reads the prompt's answers,
// without WhatsApp (POST /prompt/{id}/try with the conversation so far). A hand-off shows its reason:
// that is where a real ticket would go pending in the prompt's queue. Each turn counts in the usage.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { TextField } from '../../components/text-field.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { PromptRow } from './prompt-row.ts'

type Turn = { fromMe: boolean; body: string }

function TryConversation({ prompt, onUsed }: { prompt: PromptRow; onUsed: () => void }) {
  const { t, i18n } = useLingui()
  const [turns, setTurns] = useState<Turn[]>([])
  const [draft, setDraft] = useState('')
  const [handoff, setHandoff] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const body = draft.trim()
    if (body === '' || pending) return
    const conversation = [...turns, { fromMe: false, body }]
    setTurns(conversation)
    setDraft('')
    setFailure(null)
    setPending(true)
    try {
      const { data, error } = await api.prompt({ id: prompt.id }).try.post({ messages: conversation.slice(-100) })
      if (error || !data) {
        setFailure(errorMessage(i18n, apiErrorOf(error).code))
        return
      }
      if (data.answer !== '') setTurns([...conversation, { fromMe: true, body: data.answer }])
      setHandoff(data.handoffReason)
      onUsed()
    } catch (caught) {
      setFailure(errorMessage(i18n, apiErrorOf(caught).code))
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="try-prompt">
      <ol className="try-prompt-turns" aria-label={t`Conversation`} aria-live="polite">
        {turns.length === 0 && <li className="muted-note">{t`Write as a customer would; the prompt answers here.`}</li>}
        {turns.map((turn, index) => (
          <li key={index} className={turn.fromMe ? 'chat-bubble chat-bubble-mine' : 'chat-bubble chat-bubble-theirs'}>
            {turn.body}
          </li>
        ))}
      </ol>
      {handoff !== null && (
        <p className="try-prompt-handoff" role="status">
          {t`Handed to a person: ${handoff}`}
        </p>
      )}
      {failure !== null && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      <Form className="try-prompt-form" onSubmit={send}>
        <TextField label={t`Message`} value={draft} onChange={setDraft} autoFocus maxLength={4000} />
        <Button type="submit" isDisabled={pending || draft.trim() === ''}>
          {pending ? t`Waiting…` : t`Send`}
        </Button>
      </Form>
    </div>
  )
}

export function TryPromptDialog({ prompt, onOpenChange, onUsed }: { prompt: PromptRow | null; onOpenChange: (isOpen: boolean) => void; onUsed: () => void }) {
  const { t } = useLingui()
  const name = prompt?.name ?? ''
  return (
    <Dialog title={t`Try ${name}`} isOpen={prompt !== null} onOpenChange={onOpenChange}>
      {prompt && <TryConversation key={prompt.id} prompt={prompt} onUsed={onUsed} />}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Close`}
        </Button>
      </div>
    </Dialog>
  )
}
