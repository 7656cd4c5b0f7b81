// The tenant plugin: verifies the Bearer token once per request and resolves who is calling:
// { userId, companyId, profile, super }. Routes declare what they need with `auth`:
//   { auth: true }                 any signed-in user
//   { auth: 'admin' }              profile admin (super users pass too)
//   { auth: 'super' }              platform super users only
//   { auth: { feature: 'useKanban' } }   a plan feature, enforced by the server
//   { auth: { whenExpired: true } }       also for a company blocked for an expired subscription, and
//                                         for a pay-only session (what the client needs to show why,
//                                         GET /auth/me, and what paying needs: the billing routes)
import { and, eq, isNull } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { companies, plans, sessions, users } from '../../db/schema/index.ts'
import type { CoreDeps } from './deps.ts'
import { setRequestActor } from './request-context.ts'
import { AppError } from './errors.ts'
import { type Actor, isAdmin, isSupervisorOrAdmin } from '../contracts/roles.ts'
import type { Executor } from '../../db/client.ts'
import { companyExists } from './company-scope.ts'
import { graceDaysFrom, isSubscriptionBlocked, storedGraceDaysColumn, subscriptionState } from './subscription.ts'

export const planFeatures = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const
export type PlanFeature = (typeof planFeatures)[number]

export type AuthRequirement =
  | true
  | 'admin'
  | 'super'
  | { profile?: 'admin' | 'adminOrSupervisor'; super?: boolean; feature?: PlanFeature; whenExpired?: true }

/** The signed-in user behind a request: the Actor every service takes, plus what the plugin also read. */
export type Caller = Actor & {
  name: string
  sessionId: string
  features: Record<PlanFeature, boolean>
  /** The company's due date has passed: 'grace' still works (with a warning), 'blocked' does not. */
  subscription: 'active' | 'grace' | 'blocked'
  /** A session opened to pay an overdue subscription (sessions.payOnly) while it is still unpaid. */
  payOnly: boolean
  dueDate: string | null
}

export function bearerFrom(header: string | undefined): string | undefined {
  if (!header) return undefined
  const [scheme, token] = header.split(' ')
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined
}

/** Who holds this access token, or the error the client must see (401 log out, 403 refresh). */
export async function authenticate(deps: CoreDeps, token: string | undefined): Promise<Caller> {
  const check = await deps.tokens.verifyAccess(token)
  if (check.status === 'expired') throw new AppError('ERR_SESSION_EXPIRED')
  if (check.status === 'invalid') throw new AppError('ERR_UNAUTHORIZED')
  const { claims } = check
  const [row] = await deps.db
    .select({
      userId: users.id,
      companyId: users.companyId,
      profile: users.profile,
      super: users.super,
      name: users.name,
      tokenVersion: users.tokenVersion,
      companyStatus: companies.status,
      dueDate: companies.dueDate,
      payOnly: sessions.payOnly,
      graceDays: storedGraceDaysColumn(),
      useCampaigns: plans.useCampaigns,
      useKanban: plans.useKanban,
      useOpenAi: plans.useOpenAi,
      useIntegrations: plans.useIntegrations,
      useSchedules: plans.useSchedules,
      useInternalChat: plans.useInternalChat,
      useExternalApi: plans.useExternalApi,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.companyId, sessions.companyId)))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(and(eq(sessions.id, claims.sessionId), eq(sessions.userId, claims.userId), isNull(sessions.revokedAt)))
    .limit(1)
  // A revoked session (logout, a login elsewhere, a password change) or a stale token version: log out.
  if (!row || row.tokenVersion !== claims.tokenVersion) throw new AppError('ERR_UNAUTHORIZED')
  if (!row.companyStatus && !row.super) throw new AppError('ERR_COMPANY_INACTIVE')
  const features = Object.fromEntries(planFeatures.map((feature) => [feature, row[feature] ?? false])) as Record<PlanFeature, boolean>
  // Read on every request from the row just loaded: a renewal takes effect at once.
  const graceDays = graceDaysFrom(row.graceDays, deps.config.subscriptionGraceDays)
  const state = row.super ? 'active' : subscriptionState(row.dueDate, deps.now(), graceDays)
  const blocked = state === 'expired' && (await isSubscriptionBlocked(deps.db, { id: row.companyId, dueDate: row.dueDate }, deps.now(), graceDays))
  // A session opened after the due date (an admin signing in to pay) reaches only what paying needs
  // until the company is renewed, grace period or not: sign-in stops at the due date (§4).
  const payOnly = row.payOnly && state !== 'active'
  return {
    userId: row.userId,
    companyId: row.companyId,
    profile: row.profile,
    super: row.super,
    name: row.name,
    sessionId: claims.sessionId,
    features,
    subscription: blocked || payOnly ? 'blocked' : state === 'active' ? 'active' : 'grace',
    payOnly,
    dueDate: row.dueDate,
  }
}

/** ERR_SUBSCRIPTION_EXPIRED for a caller whose company is blocked, unless the route serves it anyway. */
export function assertSubscription(caller: Caller, requirement: AuthRequirement): void {
  const allowed = typeof requirement === 'object' && requirement.whenExpired === true
  if (caller.subscription === 'blocked' && !allowed) throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: caller.dueDate })
}

/**
 * The super user's target-company rule: a platform super user may act on another company when the
 * request names it; anyone else always acts on his own.
 */
export function mayActOnCompany(actor: Pick<Actor, 'companyId' | 'super'>, companyId: number): boolean {
  return actor.super || actor.companyId === companyId
}

/**
 * The company a request acts on: the caller's own unless it names another (?companyId=). Naming
 * another is refused (ERR_NO_PERMISSION) unless the caller is a super user, and that company must exist.
 */
export async function targetCompanyId(db: Executor, actor: Pick<Actor, 'companyId' | 'super'>, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === actor.companyId) return actor.companyId
  if (!mayActOnCompany(actor, requested)) throw new AppError('ERR_NO_PERMISSION')
  if (!(await companyExists(db, requested))) throw new AppError('ERR_NO_COMPANY_FOUND')
  return requested
}

export function assertRequirement(caller: Caller, requirement: AuthRequirement): void {
  if (requirement === true) return
  const rule = typeof requirement === 'string' ? (requirement === 'admin' ? { profile: 'admin' as const } : { super: true }) : requirement
  if (rule.super && !caller.super) throw new AppError('ERR_NO_PERMISSION')
  if (rule.profile === 'admin' && !isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  if (rule.profile === 'adminOrSupervisor' && !isSupervisorOrAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  // Plan gates bind super users' own companies too: a feature the plan lacks is off for everyone in it.
  if (rule.feature && !caller.features[rule.feature]) throw new AppError('ERR_NO_PERMISSION', { feature: rule.feature })
}

/** The caller authenticated for a request, from its transform step to its resolve step. */
const callers = new WeakMap<Request, Caller>()

/**
 * The caller of the request if he meets the requirement, else the error he must see; kept for the
 * request's resolve step. The auth macro runs it in its transform step, after the body is parsed: a
 * route whose parse hook may take a large body (the contacts import) runs it first, so that nobody
 * without the right makes the server parse anything.
 */
export async function authorizeRequest(deps: CoreDeps, request: Request, requirement: AuthRequirement): Promise<Caller> {
  const known = callers.get(request)
  if (known) return known
  const caller = await authenticate(deps, bearerFrom(request.headers.get('authorization') ?? undefined))
  assertSubscription(caller, requirement)
  setRequestActor(caller)
  assertRequirement(caller, requirement)
  callers.set(request, caller)
  return caller
}

export const tenant = (deps: CoreDeps) =>
  new Elysia().macro({
    auth(requirement: AuthRequirement) {
      return {
        // Before the body is validated (Elysia's transform runs before validation): an expired token
        // answers 403 ERR_SESSION_EXPIRED and a missing one 401 whatever the body, so a client
        // refreshes and retries instead of showing a validation error (a Whaticket-family client
        // refreshes only on 403), and a caller without the right learns nothing from the validator.
        async transform({ request, set }) {
          const caller = await authorizeRequest(deps, request, requirement)
          // Inside the grace period everything works; the header lets a client warn.
          if (caller.subscription !== 'active' && caller.dueDate) set.headers['x-subscription-expired'] = caller.dueDate
        },
        resolve({ request }) {
          const caller = callers.get(request)
          if (!caller) throw new AppError('ERR_UNAUTHORIZED')
          return { caller }
        },
      }
    },
    /** The websocket handshake carries the token in the query (browsers cannot set its headers). */
    socketAuth: {
      async resolve({ query }) {
        const caller = await authenticate(deps, typeof query.token === 'string' ? query.token : undefined)
        // A blocked company receives nothing live; a pay-only session only its payment's confirmation (hub.ts).
        if (!caller.payOnly) assertSubscription(caller, true)
        return { caller }
      },
    },
  })
