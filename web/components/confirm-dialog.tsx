// "Are you sure?" before a destructive action. The confirm button waits for the action and the dialog
// closes only when it succeeded, so a failed delete (with its toast) leaves the dialog to retry or cancel.
import { useLingui } from '@lingui/react/macro'
import { useState, type ReactNode } from 'react'
import { Button } from './button.tsx'
import { Dialog } from './dialog.tsx'

export type ConfirmDialogProps = {
  title: string
  children: ReactNode
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** Resolve true to close the dialog, false to keep it open. */
  onConfirm: () => Promise<boolean> | boolean
  confirmLabel?: string
  danger?: boolean
}

export function ConfirmDialog({ title, children, isOpen, onOpenChange, onConfirm, confirmLabel, danger = true }: ConfirmDialogProps) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    try {
      if (await onConfirm()) onOpenChange(false)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange}>
      <div className="confirm-body">{children}</div>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Cancel`}
        </Button>
        <Button variant={danger ? 'danger' : 'primary'} onPress={() => void confirm()} isPending={busy} autoFocus>
          {confirmLabel ?? t`Confirm`}
        </Button>
      </div>
    </Dialog>
  )
}
