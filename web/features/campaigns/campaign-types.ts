// The campaign shapes the pages use, as the API sends them (dates as strings), and their labels.
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { Campaign, CampaignReport, Preflight } from '../../../src/modules/campaigns/model.ts'

// As the typed client gives them (dates typed Date; on the wire they are ISO strings: read through new Date()).
type DateKeys = 'scheduledAt' | 'completedAt' | 'createdAt' | 'updatedAt'
/** From the typed client (dates typed Date) or a realtime frame (ISO strings): both fit. */
export type CampaignRow = Omit<Campaign, DateKeys> & { scheduledAt: string | Date | null; completedAt: string | Date | null; createdAt: string | Date; updatedAt: string | Date }
export type ReportData = CampaignReport
export type PreflightData = Preflight
export type CampaignStatus = Campaign['status']

/** §4: shown as inactive, programmed, inProgress, canceled, finished. */
// In their own context: the same English words elsewhere (the dashboard's "Finished" tickets) are
// translated in another gender or number.
export const statusLabels: Record<CampaignStatus, MessageDescriptor> = {
  INATIVA: msg({ message: 'Inactive', context: 'campaign status' }),
  PROGRAMADA: msg({ message: 'Programmed', context: 'campaign status' }),
  EM_ANDAMENTO: msg({ message: 'In progress', context: 'campaign status' }),
  CANCELADA: msg({ message: 'Canceled', context: 'campaign status' }),
  FINALIZADA: msg({ message: 'Finished', context: 'campaign status' }),
}

/** dd/MM/yyyy HH:mm (§9). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return ''
  const date = new Date(value)
  const pad = (number: number) => String(number).padStart(2, '0')
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** A datetime-local value ('YYYY-MM-DDTHH:mm') as §9 sends scheduledAt: 'YYYY-MM-DD HH:mm:ss'. */
export function toScheduledAt(local: string): string | null {
  if (!local) return null
  return `${local.replace('T', ' ').slice(0, 16)}:00`
}

/** A stored scheduledAt as the browser's datetime-local value. */
export function toLocalInput(value: string | Date | null): string {
  if (!value) return ''
  const date = new Date(value)
  const pad = (number: number) => String(number).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}
