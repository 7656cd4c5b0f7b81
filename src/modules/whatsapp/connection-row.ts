// A WhatsApp connection as stored: declared once here, for this module and the ones that read connections.
import type { whatsapps } from '../../../db/schema/index.ts'

export type ConnectionRow = typeof whatsapps.$inferSelect
