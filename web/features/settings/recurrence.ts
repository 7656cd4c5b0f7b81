// The §3 recurrence values with their names in the interface (the API keeps the Portuguese codes).
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Recurrence } from './company-rules.ts'

export const recurrenceLabels: Record<Recurrence, MessageDescriptor> = {
  MENSAL: msg`Monthly`,
  BIMESTRAL: msg`Every 2 months`,
  TRIMESTRAL: msg`Quarterly`,
  SEMESTRAL: msg`Every 6 months`,
  ANUAL: msg`Yearly`,
}
