// The files chosen for the next send (§2 "multiple file attach"): previews, names and remove buttons.
import { useLingui } from '@lingui/react/macro'
import { Button } from '../../components/button.tsx'
import { CloseIcon } from '../../components/icons.tsx'
import { FileIcon } from './chat-icons.tsx'

export type Attachment = { id: string; file: File; previewUrl: string | null }

export function attachmentOf(file: File): Attachment {
  const previewable = file.type.startsWith('image/')
  return { id: `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`, file, previewUrl: previewable ? URL.createObjectURL(file) : null }
}

export function releaseAttachment(attachment: Attachment): void {
  if (attachment.previewUrl) URL.revokeObjectURL(attachment.previewUrl)
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

export function AttachmentList({ attachments, onRemove }: { attachments: Attachment[]; onRemove: (id: string) => void }) {
  const { t } = useLingui()
  if (attachments.length === 0) return null
  return (
    <ul className="chat-attachments" aria-label={t`Files to send`}>
      {attachments.map((attachment) => {
        const name = attachment.file.name
        return (
          <li key={attachment.id} className="chat-attachment">
            {attachment.previewUrl ? <img src={attachment.previewUrl} alt="" className="chat-attachment-preview" /> : <FileIcon className="chat-attachment-icon" />}
            <span className="chat-attachment-name" title={name}>{name}</span>
            <span className="chat-attachment-size">{formatSize(attachment.file.size)}</span>
            <Button variant="ghost" icon className="chat-attachment-remove" aria-label={t`Remove ${name}`} onPress={() => onRemove(attachment.id)}>
              <CloseIcon />
            </Button>
          </li>
        )
      })}
    </ul>
  )
}
