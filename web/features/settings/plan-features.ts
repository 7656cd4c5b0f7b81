// The names of a plan's feature flags (§3 Plan use*), shown in the form and the list.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { PlanFeatureKey } from './plan-rules.ts'

export const planFeatureLabels: Record<PlanFeatureKey, MessageDescriptor> = {
  useCampaigns: msg`Campaigns`,
  useKanban: msg`Kanban`,
  useOpenAi: msg`OpenAI prompts`,
  useIntegrations: msg`Integrations`,
  useSchedules: msg`Schedules`,
  useInternalChat: msg`Internal chat`,
  useExternalApi: msg`External API`,
}
