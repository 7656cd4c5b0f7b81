// Role and plan gates of a page (§6): a user the page is not for sees an error toast and is sent to /
// after 1 s (the spec's delay, so the toast can be read). The gate waits for the plan's features to load
// before deciding, so a permitted user never sees a flash of the refusal.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, type ReactNode } from 'react'
import type { PlanFeature } from '../../../src/core/tenant.ts'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { PageLoading } from '../page-loading.tsx'
import { showToast } from '../toasts.tsx'
import { isAdmin } from '../../../src/contracts/roles.ts'

export const GATE_REDIRECT_MS = 1000

export type PageGateProps = {
  admin?: boolean
  super?: boolean
  feature?: PlanFeature
  /** The refusal toast's tone: an error by default; §6 tells the announcements page's with an info toast. */
  refusalTone?: 'error' | 'info'
  children: ReactNode
}

export function PageGate({ admin, super: superOnly, feature, refusalTone = 'error', children }: PageGateProps) {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const features = useAtomValue(planFeaturesAtom)
  const decided = Boolean(user) && (!feature || features !== null)
  const allowed =
    decided && (!admin || isAdmin(user)) && (!superOnly || user?.super === true) && (!feature || features?.[feature] === true)

  useEffect(() => {
    if (!decided || allowed) return
    const text = feature ? t`Your company does not have permission to access this page. Redirecting…` : t`You do not have permission to access this page.`
    showToast(refusalTone, text)
    const timer = setTimeout(() => location.replace('/'), GATE_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [allowed, decided, feature, refusalTone, t])

  if (!allowed) return <PageLoading />
  return <>{children}</>
}
