// The users page's "reset two-factor" action: for a user who lost his phone; he signs in with his
// password again (and enrols again when policy requires it).
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { icon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import type { UserRow } from './user.ts'
import { toastFailure } from '../../components/failure-toast.ts'

const KeyIcon = icon(<path d="M15 7a4 4 0 1 1-3.9 5H3v3h3v3h3v-3h2.1A4 4 0 0 1 15 7zM16 11h.01" />)

export function ResetTwoFactorButton({ user }: { user: UserRow }) {
  const { t, i18n } = useLingui()
  const [open, setOpen] = useState(false)
  const name = user.name

  const reset = async (): Promise<boolean> => {
    try {
      const { error } = await api.users({ id: user.id })['two-factor'].delete()
      if (error) {
        toastFailure(i18n, error)
        return false
      }
      showToast('success', t`Two-factor authentication of ${name} was reset.`)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  return (
    <>
      <Button variant="ghost" icon aria-label={t`Reset two-factor authentication of ${name}`} onPress={() => setOpen(true)}>
        <KeyIcon />
      </Button>
      <ConfirmDialog title={t`Reset two-factor authentication`} isOpen={open} onOpenChange={setOpen} onConfirm={reset} confirmLabel={t`Reset`}>
        <p>{t`${name} will sign in with the password only, until two-factor authentication is set up again.`}</p>
      </ConfirmDialog>
    </>
  )
}
