// A ticket as stored: declared once here, for this module and the ones that read tickets through it.
import type { tickets } from '../../../db/schema/index.ts'

export type TicketRow = typeof tickets.$inferSelect
