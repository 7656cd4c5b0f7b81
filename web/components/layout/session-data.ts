// What the shell loads once signed in: the plan's feature flags (menu gates) and the product version.
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { publicApi } from '../../api/public-client.ts'
import type { PlanFeature } from '../../../src/core/tenant.ts'
import { planFeaturesAtom, sessionUserAtom, type PlanFeatures } from '../../state/session.ts'

// Spelled out here (the server module is not bundled); the Record type fails the build if one is missing.
const featureKeys: Record<PlanFeature, true> = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
}
const featureNames = Object.keys(featureKeys) as PlanFeature[]

export function usePlanFeatures(): void {
  const companyId = useAtomValue(sessionUserAtom)?.companyId
  const setFeatures = useSetAtom(planFeaturesAtom)
  useEffect(() => {
    if (!companyId) return
    let current = true
    api.companies
      .listPlan({ companyId })
      .get()
      .then(({ data }) => {
        if (!current || !data) return
        const plan = data.plan
        setFeatures(Object.fromEntries(featureNames.map((name) => [name, Boolean(plan?.[name])])) as PlanFeatures)
      })
      .catch(() => {
        // Offline: the feature-gated items stay hidden until the next load.
      })
    return () => {
      current = false
    }
  }, [companyId, setFeatures])
}

export function useVersion(): string | null {
  const [version, setVersion] = useState<string | null>(null)
  useEffect(() => {
    publicApi.version
      .get()
      .then(({ data }) => setVersion(data?.version ?? null))
      .catch(() => setVersion(null))
  }, [])
  return version
}
