// A contact's data-subject requests (LGPD/GDPR, admins): download everything about him as a .zip, or
// erase him with his messages and files. Erasing cannot be undone, so the admin types the contact's
// number to confirm, not just a click.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { MoreIcon } from '../../components/icons.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { ContactRow } from './contact-row.ts'
import { downloadContactData } from './data-export-download.ts'
import { LazyPopoverMenu } from '../../components/lazy-popover-menu.tsx'
import { SplitMenuTrigger } from '../../components/overlay-trigger.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

type DataRequestMenuProps = { contact: ContactRow; onErased: (contactId: number) => void }

export function DataRequestMenu({ contact, onErased }: DataRequestMenuProps) {
  const { t, i18n } = useLingui()
  const [erasing, setErasing] = useState(false)
  const [typed, setTyped] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const name = contact.name
  const number = contact.number

  const exportData = async () => {
    const failure = await downloadContactData(contact.id)
    if (failure) showToast('error', errorMessage(i18n, failure))
    else showToast('success', t`Data of ${name} downloaded.`)
  }

  const confirmErase = async (): Promise<boolean> => {
    if (typed.trim() !== number) {
      setMismatch(true)
      return false
    }
    try {
      const { data, error } = await api.contacts({ id: contact.id }).erase.delete()
      if (error || !data) {
        toastFailure(i18n, error)
        return false
      }
      const messages = data.messages
      const files = data.files
      showToast('success', t`${name} erased: ${messages} messages and ${files} files removed.`)
      onErased(contact.id)
      return true
    } catch (failure) {
      toastFailure(i18n, failure)
      return false
    }
  }

  return (
    <>
      <SplitMenuTrigger
        menu={(trigger) => (
          <LazyPopoverMenu
            trigger={trigger}
            aria-label={t`Data requests about ${name}`}
            onAction={(key: Key) => {
              if (key === 'export') void exportData()
              if (key === 'erase') {
                setTyped('')
                setMismatch(false)
                setErasing(true)
              }
            }}
            items={[
              { id: 'export', children: t`Export all data (.zip)` },
              { id: 'erase', children: t`Erase all data…` },
            ]}
          />
        )}
      >
        <Button variant="ghost" icon aria-label={t`Data requests about ${name}`}>
          <MoreIcon />
        </Button>
      </SplitMenuTrigger>
      <ConfirmDialog title={t`Erase contact data`} isOpen={erasing} onOpenChange={setErasing} onConfirm={confirmErase} confirmLabel={t`Erase for good`}>
        <p>{t`${name} will be erased with every ticket, message, note, schedule and media file. This cannot be undone.`}</p>
        <TextField
          label={t`Type the number ${number} to confirm`}
          value={typed}
          onChange={(value) => {
            setTyped(value)
            setMismatch(false)
          }}
          error={mismatch ? t`The number typed is not the contact's.` : undefined}
          autoComplete="off"
        />
      </ConfirmDialog>
    </>
  )
}
