// Creating, editing and deleting a company's users, and who may do what to whom.
//
// Password changes: the user's sessions are revoked (the tenant plugin rejects the access tokens of a
// revoked session at once). When an admin sets someone else's password, tokenVersion is raised as well
// and every session of that user ends. When a user changes his own password, his current session is kept
// and tokenVersion is NOT raised: the client refreshes only on 403, and a stale token version answers 401
// (log out), so raising it would sign him out of the very screen where he changed it. His other sessions
// are revoked, which is what protects him from whoever else held his password.
import { and, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { tickets, userQueues, users } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { type Caller, targetCompanyId } from '../../core/tenant.ts'
import { revokeSessions } from '../auth/service.ts'
import { assertWithinPlanLimit } from '../plans/limits.ts'
import type { CreateUserBody, PublicUser, UpdateUserBody, UserOption } from './model.ts'
import { isOwned, ownedIds } from '../../core/company-scope.ts'
import { emailTaken, findCompanyUser, findPublicUser, findUserOptions, findUserQueueIds } from './queries.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'

/** Reads of a user for sign-in and password reset (the auth modules). */
export { findPublicUser, findUserByEmail } from './queries.ts'

/** Trimmed name (still 2 to 50 once trimmed) and the e-mail as it is stored: trimmed, lower case. */
function identityOf(input: { name: string; email: string }): { name: string; email: string } {
  const name = input.name.trim()
  if (name.length < 2) throw invalidField('name', 'name is required, 2 to 50 characters')
  return { name, email: input.email.trim().toLowerCase() }
}

async function assertEmailFree(db: Executor, email: string, exceptUserId?: number): Promise<void> {
  if (await emailTaken(db, email, exceptUserId)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS')
}

/** The connection and queues a user is given must be the company's own: anything else is bad input. */
async function assertReferences(db: Executor, companyId: number, input: { whatsappId?: number | null; queueIds?: number[] }): Promise<void> {
  if (input.whatsappId !== undefined && input.whatsappId !== null) {
    if (!(await isOwned(db, { companyId, kind: 'connections', id: input.whatsappId }))) {
      throw invalidField('whatsappId', 'whatsappId is not a connection of your company')
    }
  }
  if (input.queueIds && input.queueIds.length > 0) {
    const known = await ownedIds(db, { companyId, kind: 'queues', ids: input.queueIds })
    if (known.length !== input.queueIds.length) throw invalidField('queueIds', 'queueIds must all be queues of your company')
  }
}

/** Two users racing for one e-mail: the unique index decides, and the loser hears the same error. */
function emailRace(error: unknown): never {
  if (isUniqueViolation(error, 'users_email_unique')) throw new AppError('ERR_EMAIL_ALREADY_EXISTS')
  throw error
}

async function replaceQueues(db: Executor, scope: { companyId: number; userId: number; queueIds: number[] }): Promise<void> {
  await db.delete(userQueues).where(and(eq(userQueues.companyId, scope.companyId), eq(userQueues.userId, scope.userId)))
  if (scope.queueIds.length === 0) return
  await db.insert(userQueues).values(scope.queueIds.map((queueId) => ({ companyId: scope.companyId, userId: scope.userId, queueId })))
}

const distinct = (ids: number[]) => [...new Set(ids)]

async function publicUserOrFail(deps: Deps, companyId: number, userId: number): Promise<PublicUser> {
  const user = await findPublicUser(deps.db, { companyId, userId })
  if (!user) throw new AppError('ERR_NO_USER_FOUND')
  return user
}

/** A user of the caller's company, as the API shows him: only admins may look at someone else. */
export async function showUser(deps: Deps, caller: Actor, userId: number): Promise<PublicUser> {
  const user = await publicUserOrFail(deps, caller.companyId, userId)
  if (user.id !== caller.userId && !isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  return user
}

/**
 * The caller's own interface language (POST /users/set-language/:lang, which a Whaticket-family
 * client calls when the user picks one); our web app keeps its choice in the browser as well.
 */
export async function setOwnLanguage(deps: Deps, caller: Actor, language: NonNullable<PublicUser['language']>): Promise<PublicUser> {
  await deps.db
    .update(users)
    .set({ language, updatedAt: deps.now() })
    .where(and(eq(users.id, caller.userId), eq(users.companyId, caller.companyId)))
  return publicUserOrFail(deps, caller.companyId, caller.userId)
}

/** The company's users for selects; only platform super users may name another company. */
export async function listUserOptions(deps: Deps, caller: Actor, requestedCompanyId?: number): Promise<UserOption[]> {
  const companyId = await targetCompanyId(deps.db, caller, requestedCompanyId)
  return findUserOptions(deps.db, { companyId })
}

/** Admins add users to their own company; the super flag is never given here (only through the CLI). */
export async function createUser(deps: Deps, caller: Actor, input: CreateUserBody): Promise<PublicUser> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const { name, email } = identityOf(input)
  const queueIds = distinct(input.queueIds ?? [])
  // Hash before the transaction: it is slow on purpose, and PGlite blocks everything while one is open.
  const passwordHash = await Bun.password.hash(input.password)
  const companyId = caller.companyId
  const userId = await deps.db
    .transaction(async (tx) => {
      await assertWithinPlanLimit(tx, companyId, 'users')
      await assertEmailFree(tx, email)
      await assertReferences(tx, companyId, { whatsappId: input.whatsappId, queueIds })
      const [created] = await tx
        .insert(users)
        .values({
          companyId,
          name,
          email,
          passwordHash,
          profile: input.profile ?? 'user',
          allTicket: input.allTicket ?? 'desabled',
          whatsappId: input.whatsappId ?? null,
        })
        .returning({ id: users.id })
      await replaceQueues(tx, { companyId, userId: created!.id, queueIds })
      return created!.id
    })
    .catch(emailRace)
  const user = await publicUserOrFail(deps, companyId, userId)
  deps.bus.emit('user.changed', { companyId, action: 'create', userId, user })
  return user
}

/**
 * Admins edit anyone of their company (super users only by super users). Others edit only themselves,
 * and only name, e-mail, password and default connection: profile, allTicket and queues may be sent
 * back unchanged (the form always sends them) but not changed.
 */
export async function updateUser(deps: Deps, caller: Actor & Pick<Caller, 'sessionId'>, userId: number, input: UpdateUserBody): Promise<PublicUser> {
  const companyId = caller.companyId
  const target = await findCompanyUser(deps.db, { companyId, userId })
  if (!target) throw new AppError('ERR_NO_USER_FOUND')
  const self = target.id === caller.userId
  const admin = isAdmin(caller)
  if (!admin && !self) throw new AppError('ERR_NO_PERMISSION')
  if (target.super && !caller.super) throw new AppError('ERR_NO_PERMISSION')
  const { name, email } = identityOf(input)
  const queueIds = input.queueIds === undefined ? undefined : distinct(input.queueIds)
  if (!admin) {
    if (input.profile !== undefined && input.profile !== target.profile) throw new AppError('ERR_NO_PERMISSION')
    if (input.allTicket !== undefined && input.allTicket !== target.allTicket) throw new AppError('ERR_NO_PERMISSION')
    if (queueIds !== undefined) {
      const current = new Set(await findUserQueueIds(deps.db, { companyId, userId }))
      if (queueIds.length !== current.size || queueIds.some((queueId) => !current.has(queueId))) throw new AppError('ERR_NO_PERMISSION')
    }
  }
  // Changing one's own password takes the current one: a session left open or stolen cannot take the account.
  if (self && input.password !== undefined) {
    if (!input.currentPassword) throw invalidField('currentPassword', 'currentPassword is required to change your own password')
    if (!(await Bun.password.verify(input.currentPassword, target.passwordHash))) throw invalidField('currentPassword', 'currentPassword is not your current password')
  }
  const passwordHash = input.password === undefined ? undefined : await Bun.password.hash(input.password)
  const now = deps.now()
  await deps.db
    .transaction(async (tx) => {
      await assertEmailFree(tx, email, target.id)
      await assertReferences(tx, companyId, { whatsappId: input.whatsappId, queueIds })
      await tx
        .update(users)
        .set({
          name,
          email,
          profile: admin ? input.profile : undefined,
          allTicket: admin ? input.allTicket : undefined,
          whatsappId: input.whatsappId,
          passwordHash,
          tokenVersion: passwordHash && !self ? sql`${users.tokenVersion} + 1` : undefined,
        })
        .where(and(eq(users.companyId, companyId), eq(users.id, target.id)))
      if (admin && queueIds !== undefined) await replaceQueues(tx, { companyId, userId: target.id, queueIds })
      if (passwordHash) await revokeSessions(tx, { userId: target.id, now, exceptSessionId: self ? caller.sessionId : undefined })
    })
    .catch(emailRace)
  if (passwordHash) deps.bus.emit('auth.sessions_revoked', { companyId, userId: target.id, keepSessionId: self ? caller.sessionId : undefined })
  const user = await publicUserOrFail(deps, companyId, target.id)
  deps.bus.emit('user.changed', { companyId, action: 'update', userId: target.id, user })
  return user
}

/** Admins remove users of their company, never themselves. Their open tickets go back to the waiting list. */
export async function deleteUser(deps: Deps, caller: Actor, userId: number): Promise<void> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = caller.companyId
  const target = await findCompanyUser(deps.db, { companyId, userId })
  if (!target) throw new AppError('ERR_NO_USER_FOUND')
  if (target.id === caller.userId) throw new AppError('ERR_CANNOT_DELETE_SELF')
  if (target.super && !caller.super) throw new AppError('ERR_NO_PERMISSION')
  await deps.db.transaction(async (tx) => {
    // The foreign key would only clear userId and leave "open" tickets that nobody attends.
    await tx
      .update(tickets)
      .set({ status: 'pending', userId: null })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.userId, target.id), eq(tickets.status, 'open')))
    await tx.delete(users).where(and(eq(users.companyId, companyId), eq(users.id, target.id)))
  })
  deps.bus.emit('auth.sessions_revoked', { companyId, userId: target.id })
  deps.bus.emit('user.changed', { companyId, action: 'delete', userId: target.id })
}
