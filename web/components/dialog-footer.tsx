// The pieces every form dialog repeats: the alert above the fields for a refusal no field explains,
// and the Cancel / Save buttons at the bottom (Save submits the form, so Enter saves too).
import { useLingui } from '@lingui/react/macro'
import { Button } from './button.tsx'

/** The form's own error (announced at once); nothing when there is none. */
export function FormAlert({ text }: { text: string | undefined }) {
  return text ? (
    <p className="form-alert" role="alert">
      {text}
    </p>
  ) : null
}

export type DialogFooterProps = { onCancel: () => void; pending: boolean; saveLabel?: string }

export function DialogFooter({ onCancel, pending, saveLabel }: DialogFooterProps) {
  const { t } = useLingui()
  return (
    <div className="dialog-actions">
      <Button variant="secondary" onPress={onCancel}>
        {t`Cancel`}
      </Button>
      <Button type="submit" isPending={pending}>
        {saveLabel ?? t`Save`}
      </Button>
    </div>
  )
}
