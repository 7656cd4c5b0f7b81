// A message as stored: declared once here, for this module and the ones that read messages through it.
import type { messages } from '../../../db/schema/index.ts'

export type MessageRow = typeof messages.$inferSelect
