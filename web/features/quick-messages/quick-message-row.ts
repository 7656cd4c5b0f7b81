// A quick message as the page holds it, the `quickemessage` channel's payloads and who may change one.
import type { QuickMessage } from '../../../src/modules/quick-messages/model.ts'
import type { SessionUser } from '../../state/session.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'

export type QuickMessageRow = Omit<QuickMessage, 'createdAt' | 'updatedAt'>


/** The server's rule (editableOrFail): your own, or a shared one when you are an admin. */
export function canEditQuickMessage(user: Pick<SessionUser, 'id' | 'profile' | 'super'> | null, row: Pick<QuickMessageRow, 'userId' | 'geral'>): boolean {
  if (!user) return false
  return row.userId === user.id || (row.geral && isAdmin(user))
}

/** §5 Quick message: "file names have spaces replaced by underscores" (the server stores it so). */
export function storedFileName(name: string): string {
  return name.replace(/\s+/g, '_')
}

/** The list's preview of a message: one line, at most `max` characters. */
export function messagePreview(message: string, max = 60): string {
  const line = message.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
