// §6: the kanban toggle of the tag dialog is for supervisors and admins; the server lets the same
// people edit and delete tags (src/modules/tags/service.ts canManageTags), anyone create a plain one.
import type { SessionUser } from '../../state/session.ts'

export function canManageTags(user: Pick<SessionUser, 'profile' | 'super'> | null): boolean {
  return user !== null && (user.profile === 'admin' || user.profile === 'supervisor' || user.super)
}
