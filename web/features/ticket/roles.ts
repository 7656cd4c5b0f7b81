// §6: what an admin may do here (delete a ticket, anyone's note, list users with their queues).
import type { SessionUser } from '../../state/session.ts'

export const isAdminUser = (user: SessionUser | null): boolean => user?.profile === 'admin' || Boolean(user?.super)
