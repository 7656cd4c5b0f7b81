// The plans tab's form without React: limits and price typed as text, checked as the server will
// (src/modules/plans/model.ts), and the feature flags, every one enabled for a new plan (§9).

export const planFeatures = ['useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules', 'useInternalChat', 'useExternalApi'] as const
export type PlanFeatureKey = (typeof planFeatures)[number]

export type PlanFormValues = {
  name: string
  users: string
  connections: string
  queues: string
  /** The monthly price; a comma is accepted as the decimal separator (49,90). */
  value: string
  isPublic: boolean
} & Record<PlanFeatureKey, boolean>

export type PlanField = 'name' | 'users' | 'connections' | 'queues' | 'value'

const MAX_LIMIT = 1_000_000
const MAX_VALUE = 99_999_999.99

/** A positive whole number within the server's bounds, or null. */
export function parseLimit(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) return null
  const number = Number(trimmed)
  return number >= 1 && number <= MAX_LIMIT ? number : null
}

/** A price of at least 0 with at most two decimals, or null. */
export function parsePrice(text: string): number | null {
  const trimmed = text.trim().replace(',', '.')
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null
  const number = Number(trimmed)
  return number <= MAX_VALUE ? number : null
}

export function planProblems(values: PlanFormValues): PlanField[] {
  const problems: PlanField[] = []
  const name = values.name.trim()
  if (name.length === 0 || name.length > 100) problems.push('name')
  for (const field of ['users', 'connections', 'queues'] as const) if (parseLimit(values[field]) === null) problems.push(field)
  if (parsePrice(values.value) === null) problems.push('value')
  return problems
}

/** Call only when planProblems found nothing. */
export function planBody(values: PlanFormValues) {
  return {
    name: values.name.trim(),
    users: parseLimit(values.users) ?? 1,
    connections: parseLimit(values.connections) ?? 1,
    queues: parseLimit(values.queues) ?? 1,
    value: parsePrice(values.value) ?? 0,
    isPublic: values.isPublic,
    ...Object.fromEntries(planFeatures.map((feature) => [feature, values[feature]])),
  } as { name: string; users: number; connections: number; queues: number; value: number; isPublic: boolean } & Record<PlanFeatureKey, boolean>
}

type StoredPlan = { name: string; users: number; connections: number; queues: number; value: number; isPublic: boolean } & Record<PlanFeatureKey, boolean>

export function planFormOf(plan: StoredPlan | null): PlanFormValues {
  const features = Object.fromEntries(planFeatures.map((feature) => [feature, plan ? plan[feature] : true])) as Record<PlanFeatureKey, boolean>
  if (!plan) return { name: '', users: '', connections: '', queues: '', value: '', isPublic: true, ...features }
  return {
    name: plan.name,
    users: String(plan.users),
    connections: String(plan.connections),
    queues: String(plan.queues),
    value: plan.value.toFixed(2),
    isPublic: plan.isPublic,
    ...features,
  }
}
