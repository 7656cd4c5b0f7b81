// Who is signed in, and what their company's plan allows. The access token itself is not here:
// it lives in memory in api/session.ts, never in storage.
import { atom } from 'jotai'
import type { PublicUser } from '../../src/modules/users/model.ts'
import type { PlanFeature } from '../../src/core/tenant.ts'

/** The signed-in user as the API sends it (timestamps left out: the client does not use them). */
export type SessionUser = Omit<PublicUser, 'createdAt' | 'updatedAt'>

export const sessionUserAtom = atom<SessionUser | null>(null)

/** The company plan's feature flags (GET /companies/listPlan/{companyId}); null until loaded. */
export type PlanFeatures = Record<PlanFeature, boolean>
export const planFeaturesAtom = atom<PlanFeatures | null>(null)

/**
 * The company's due date passed and this admin signed in to pay (the sign-in answer's payOnly): the
 * app shows only the pay pages until the company is renewed.
 */
export const payOnlyAtom = atom(false)
