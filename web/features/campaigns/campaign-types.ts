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

// The time helpers live apart (no lingui macro there, so their unit test runs without the compile step).
export { formatDateTime, toScheduledAt, toZonedInput } from './campaign-time.ts'
