// The profile modal of the user menu: the user edits their own name, e-mail and password (§5 User).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { updateSessionUser } from '../../api/session.ts'
import { isEmail, isStrongPassword, lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { sessionUserAtom, type SessionUser } from '../../state/session.ts'
import { DialogFooter, FormAlert } from '../dialog-footer.tsx'
import { Dialog } from '../dialog.tsx'
import { PasswordField } from '../password-field.tsx'
import { TextField } from '../text-field.tsx'
import { showToast } from '../toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { TwoFactorSection } from '../../features/two-factor/two-factor-section.tsx'

type Errors = { name?: string; email?: string; password?: string; currentPassword?: string; form?: string }

function ProfileForm({ user, onDone }: { user: SessionUser; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(user.name)
  const [email, setEmail] = useState(user.email)
  const [password, setPassword] = useState('')
  const [currentPassword, setCurrentPassword] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const rules = {
    name: t`Enter a name, 2 to 50 characters.`,
    email: t`Enter a valid e-mail address.`,
    password: t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`,
    currentPassword: t`Enter your current password to set a new one.`,
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(name, 2, 50)) found.name = rules.name
    if (!isEmail(email)) found.email = rules.email
    if (password && (!isStrongPassword(password) || password.length > 200)) found.password = rules.password
    if (password && !currentPassword) found.currentPassword = rules.currentPassword
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const { data, error } = await api.users({ id: user.id }).put({ name: name.trim(), email: email.trim(), ...(password ? { password, currentPassword } : {}) })
      if (error || !data) {
        setErrors(refusalErrors(apiErrorOf(error), rules, (code) => errorMessage(i18n, code), { code: 'ERR_EMAIL_ALREADY_EXISTS', field: 'email' }))
        return
      }
      const { createdAt: _createdAt, updatedAt: _updatedAt, ...saved } = data
      updateSessionUser(saved)
      showToast('success', t`Profile saved.`)
      onDone()
    } catch (failure) {
      setErrors({ form: errorMessage(i18n, apiErrorOf(failure).code) })
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Name`} name="name" autoComplete="name" value={name} onChange={setName} error={errors.name} isRequired autoFocus />
      <TextField label={t`E-mail`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} isRequired />
      <PasswordField
        label={t`New password`}
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
        description={t`Leave it empty to keep the current password.`}
      />
      {password ? (
        <PasswordField
          label={t`Current password`}
          name="currentPassword"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
          error={errors.currentPassword}
          isRequired
        />
      ) : null}
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export function ProfileDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  if (!user) return null
  return (
    <Dialog title={t`Profile`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <ProfileForm user={user} onDone={() => onOpenChange(false)} />
      <TwoFactorSection />
    </Dialog>
  )
}
