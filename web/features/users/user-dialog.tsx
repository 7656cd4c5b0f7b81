// The user modal (§2 Modals "user", §3 User, §5 User): name, e-mail, password (required for a new user,
// optional on an edit, shown or hidden), and for admins (§6 user-modal:editProfile, editQueues) the
// profile, the queues and allTicket; the default connection. Checked against §5 before sending; the
// server's refusals land on their fields, the others (plan limit) in the form and as a toast (§8).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { profileLabels } from './profile-labels.ts'
import { QueueChoices, type QueueChoice } from '../../components/queue-choices.tsx'
import {
  emptyUserForm,
  fieldErrorsOf,
  profiles,
  userBodyOf,
  userFormOf,
  validateUserForm,
  type Profile,
  type UserFormErrors,
  type UserFormValues,
  type UserRow,
} from './user.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type ConnectionChoice = { id: number; name: string }

const NO_CONNECTION = 'none'

type UserFormProps = {
  user: UserRow | null
  editAccess: boolean
  queues: QueueChoice[]
  connections: ConnectionChoice[]
  onSaved: (user: UserRow) => void
  onDone: () => void
}

function UserForm({ user, editAccess, queues, connections, onSaved, onDone }: UserFormProps) {
  const { t, i18n } = useLingui()
  const creating = user === null
  // Your own account: a new password takes the current one (as in the profile modal).
  const sessionUser = useAtomValue(sessionUserAtom)
  const self = user !== null && user.id === sessionUser?.id
  const [values, setValues] = useState<UserFormValues>(() => (user ? userFormOf(user) : emptyUserForm()))
  const [errors, setErrors] = useState<UserFormErrors>({})
  const [formError, setFormError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)

  const set = <Field extends keyof UserFormValues>(field: Field, value: UserFormValues[Field]) => {
    setValues((current) => ({ ...current, [field]: value }))
    // A field's error is about the value it had: changing it clears the error until the next check.
    setErrors((current) => {
      if (!(field in current)) return current
      const { [field as keyof UserFormErrors]: _cleared, ...rest } = current
      return rest
    })
  }

  const texts: Record<NonNullable<UserFormErrors[keyof UserFormErrors]>, string> = {
    name: t`Enter a name, 2 to 50 characters.`,
    email: t`Enter a valid e-mail address.`,
    emailTaken: errorMessage(i18n, 'ERR_EMAIL_ALREADY_EXISTS'),
    password: t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`,
    passwordRequired: t`Enter a password: at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`,
    currentPassword: t`Enter your current password to set a new one.`,
    whatsappId: t`Choose one of the company's connections.`,
    queueIds: t`Choose among the company's queues.`,
  }
  const errorOf = (field: keyof UserFormErrors) => {
    const rule = errors[field]
    return rule ? texts[rule] : undefined
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validateUserForm(values, creating, { self })
    setErrors(found)
    setFormError(undefined)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const { data, error } = user
        ? await api.users({ id: user.id }).put(userBodyOf(values, { creating: false, editAccess }))
        : await api.users.post(userBodyOf(values, { creating: true, editAccess }))
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer = fieldErrorsOf(failure)
        setErrors(fromServer)
        if (Object.keys(fromServer).length === 0) {
          // ERR_PLAN_LIMIT_USERS, ERR_NO_PERMISSION, ...: nothing to fix in a field, said in the form and as a toast.
          const text = errorMessage(i18n, failure.code)
          setFormError(text)
          showToast('error', text)
        }
        return
      }
      onSaved(data)
      showToast('success', t`User saved successfully.`)
      onDone()
    } catch (failure) {
      const text = toastFailure(i18n, failure)
      setFormError(text)
    } finally {
      setPending(false)
    }
  }

  const profileOptions = profiles.map((profile) => ({ id: profile, label: i18n._(profileLabels[profile]) }))
  const connectionOptions = [{ id: NO_CONNECTION, label: t`None` }, ...connections.map((connection) => ({ id: connection.id, label: connection.name }))]
  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={formError} />
      <div className="form-grid">
        <TextField label={t`Name`} name="name" autoComplete="off" value={values.name} onChange={(value) => set('name', value)} error={errorOf('name')} isRequired autoFocus maxLength={50} />
        <TextField label={t`E-mail`} name="email" type="email" autoComplete="off" value={values.email} onChange={(value) => set('email', value)} error={errorOf('email')} isRequired />
        <PasswordField
          label={t`Password`}
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(value) => set('password', value)}
          error={errorOf('password')}
          isRequired={creating}
          description={creating ? t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.` : t`Leave it empty to keep the current password.`}
        />
        {self && values.password !== '' ? (
          <PasswordField
            label={t`Current password`}
            name="currentPassword"
            autoComplete="current-password"
            value={values.currentPassword ?? ''}
            onChange={(value) => set('currentPassword', value)}
            error={errorOf('currentPassword')}
            isRequired
          />
        ) : null}
        {editAccess ? (
          <Select
            label={t`Profile`}
            name="profile"
            options={profileOptions}
            value={values.profile}
            onChange={(key) => {
              if (typeof key === 'string' && (profiles as string[]).includes(key)) set('profile', key as Profile)
            }}
          />
        ) : null}
        <Select
          label={t`Default connection`}
          name="whatsappId"
          options={connectionOptions}
          value={values.whatsappId ?? NO_CONNECTION}
          onChange={(key) => set('whatsappId', typeof key === 'number' ? key : null)}
          error={errorOf('whatsappId')}
        />
        {editAccess ? (
          <>
            <QueueChoices
              label={t`Queues`}
              queues={queues}
              value={values.queueIds}
              onChange={(ids) => set('queueIds', ids)}
              emptyText={t`The company has no queues yet.`}
              description={t`An agent sees only the tickets of his queues.`}
              error={errorOf('queueIds')}
            />
            <div className="full">
              <SwitchField
                isSelected={values.allTicket === 'enabled'}
                onChange={(isSelected) => set('allTicket', isSelected ? 'enabled' : 'desabled')}
                description={t`Pending tickets that have no queue appear in this user's list and notifications.`}
              >
                {t`Sees pending tickets without a queue`}
              </SwitchField>
            </div>
          </>
        ) : null}
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type UserDialogProps = {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** null: a new user. */
  user: UserRow | null
  editAccess: boolean
  queues: QueueChoice[]
  connections: ConnectionChoice[]
  onSaved: (user: UserRow) => void
}

export function UserDialog({ isOpen, onOpenChange, user, editAccess, queues, connections, onSaved }: UserDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={user ? t`Edit user` : t`Add user`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      {/* Keyed by the user: opening another one starts from its own values. */}
      <UserForm key={user?.id ?? 'new'} user={user} editAccess={editAccess} queues={queues} connections={connections} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
