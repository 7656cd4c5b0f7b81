// How each status of a scheduled message is named (§3 Schedule: ERRO is shown as a send error).
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ScheduleStatus } from './schedule-rules.ts'

export const scheduleStatusLabels: Record<ScheduleStatus, MessageDescriptor> = {
  PENDENTE: msg`Scheduled`,
  AGENDADA: msg`Sending`,
  ENVIADA: msg`Sent`,
  ERRO: msg`Send error`,
  CANCELADA: msg`Cancelled: the customer replied`,
}

/** The CSS modifier of a status (styles/schedules.css). */
export function scheduleStatusClass(status: ScheduleStatus): string {
  return `schedule-status-${status.toLowerCase()}`
}
