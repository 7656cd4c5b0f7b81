// The chat modal (§5 Chat: a title and at least one user, otherwise an alert; a save failure is
// ignored silently, §8). Creates (POST /chats) or, for its owner, edits (PUT /chats/{id}).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState, type FormEvent } from 'react'
import { Checkbox, CheckboxGroup, Form, Label } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CheckIcon } from '../../components/icons.tsx'
import { TextField } from '../../components/text-field.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { toChatRow, type ChatRow } from './chat-row.ts'

type UserChoice = { id: number; name: string }

type FormProps = { chat: ChatRow | null; onSaved: (chat: ChatRow) => void; onDone: () => void }

function ChatForm({ chat, onSaved, onDone }: FormProps) {
  const { t } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  const [title, setTitle] = useState(chat?.title ?? '')
  const [memberIds, setMemberIds] = useState<number[]>(chat ? chat.users.map((member) => member.userId).filter((id) => id !== me?.id) : [])
  const [users, setUsers] = useState<UserChoice[]>([])
  const [alert, setAlert] = useState<string | undefined>()
  const [pending, setPending] = useState(false)

  useEffect(() => {
    let current = true
    api.users.list
      .get({ query: {} })
      .then(({ data }) => current && data && setUsers(data.filter((user) => user.id !== me?.id)))
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [me?.id])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (title.trim() === '' || memberIds.length === 0) {
      setAlert(t`Give the chat a title and choose at least one user.`)
      return
    }
    setAlert(undefined)
    setPending(true)
    try {
      const body = { title: title.trim(), users: memberIds.map((id) => ({ id })) }
      const { data } = chat ? await api.chats({ id: chat.id }).put(body) : await api.chats.post(body)
      if (data) onSaved(toChatRow(data))
    } catch {
      // §8: a failed save is ignored silently.
    } finally {
      setPending(false)
      onDone()
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={alert} />
      <TextField label={t`Title`} name="title" value={title} onChange={setTitle} isRequired autoFocus maxLength={100} />
      <CheckboxGroup className="field full" value={memberIds.map(String)} onChange={(ids) => setMemberIds(ids.map(Number))}>
        <Label className="field-label">{t`Users`}</Label>
        <div className="queue-choices chat-user-choices">
          {users.map((user) => (
            <Checkbox key={user.id} value={String(user.id)} className="queue-choice">
              {({ isSelected }) => (
                <>
                  <span className="queue-choice-box" aria-hidden="true">
                    {isSelected ? <CheckIcon /> : null}
                  </span>
                  {user.name}
                </>
              )}
            </Checkbox>
          ))}
        </div>
      </CheckboxGroup>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type ChatDialogProps = { isOpen: boolean; chat: ChatRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (chat: ChatRow) => void }

export function ChatDialog({ isOpen, chat, onOpenChange, onSaved }: ChatDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={chat ? t`Edit chat` : t`New chat`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <ChatForm key={chat?.id ?? 'new'} chat={chat} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
