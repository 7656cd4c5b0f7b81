// Connections (§3 Whatsapp connection): the form, the company's one default connection, the queues a
// connection serves, its external-API token, and the plan's limit on how many a company may have.
//
// The default: the first connection of a company becomes its default; making another one default
// unsets the previous one in the same transaction; the default cannot simply be switched off while
// other connections exist (ERR_NO_OTHER_WHATSAPP: make another one default instead); deleting the
// default promotes the oldest remaining connection. The company row is locked around these writes, so
// two admins racing cannot leave a company with two defaults or none.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { whatsapps } from '../../../db/schema/index.ts'
import type { SessionControls } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { isOwned, ownedIds } from '../../core/company-scope.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { assertWithinPlanLimit } from '../plans/limits.ts'
import type { CreateWhatsappBody, UpdateWhatsappBody, Whatsapp, WhatsappDetail } from './model.ts'
import {
  countOtherWhatsapps,
  findCompanyWhatsapp,
  findDefaultWhatsapp,
  findSuccessor,
  findWhatsappQueueIds,
  findWhatsappRecord,
  findWhatsappRecords,
  lockCompany,
  replaceWhatsappQueues,
  setDefault,
  unsetDefault,
  type WhatsappRow,
} from './queries.ts'
import { toWhatsapp, toWhatsappDetail } from './shapes.ts'
import { generateConnectionToken, openConnectionToken, storedConnectionToken } from './connection-token.ts'
import { type Actor, isAdmin } from '../../contracts/roles.ts'
import { targetCompanyId } from '../../core/tenant.ts'

/** A company's connection, or its default one, for the modules that send or import through it. */
export { findCompanyWhatsapp, findConnectionStates, findDefaultWhatsapp, type ConnectionState } from './queries.ts'

/** The company's default connection, for whatever needs one (a ticket opened without a connection). */
export async function getDefaultWhatsapp(db: Executor, companyId: number): Promise<WhatsappRow> {
  const connection = await findDefaultWhatsapp(db, companyId)
  if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND')
  return connection
}

function trimmedName(name: string): string {
  const trimmed = name.trim()
  if (trimmed.length < 2) throw invalidField('name', 'name is required, 2 to 50 characters')
  return trimmed
}

function assertProviderAvailable(deps: Deps, provider: string | undefined): void {
  if (provider === 'simulator' && !deps.config.whatsappSimulator) {
    throw invalidField('provider', "provider 'simulator' is available only when WHATSAPP_SIMULATOR is on")
  }
}

/** A connection serving several queues greets with the menu of queues: the greeting is its header. */
function assertGreeting(queueCount: number, greetingMessage: string): void {
  if (queueCount > 1 && greetingMessage.trim() === '') throw new AppError('ERR_WAPP_GREETING_REQUIRED')
}

/** Queues, prompt and integration must be the company's own: anything else is bad input. */
async function assertReferences(
  db: Executor,
  companyId: number,
  input: { queueIds?: number[]; transferQueueId?: number | null; promptId?: number | null; integrationId?: number | null },
): Promise<void> {
  if (input.queueIds && input.queueIds.length > 0) {
    const known = await ownedIds(db, { companyId, kind: 'queues', ids: input.queueIds })
    if (known.length !== input.queueIds.length) throw invalidField('queueIds', 'queueIds must all be queues of your company')
  }
  if (input.transferQueueId) {
    const known = await ownedIds(db, { companyId, kind: 'queues', ids: [input.transferQueueId] })
    if (known.length === 0) throw invalidField('transferQueueId', 'transferQueueId must be a queue of your company or null')
  }
  if (input.promptId && !(await isOwned(db, { companyId, kind: 'prompts', id: input.promptId }))) {
    throw invalidField('promptId', 'promptId must be a prompt of your company or null')
  }
  if (input.integrationId && !(await isOwned(db, { companyId, kind: 'integrations', id: input.integrationId }))) {
    throw invalidField('integrationId', 'integrationId must be an integration of your company or null')
  }
}

function nameRace(error: unknown): never {
  if (isUniqueViolation(error, 'whatsapps_company_name_unique')) throw new AppError('ERR_WAPP_NAME_ALREADY_EXISTS')
  throw error
}

const distinct = (ids: number[]) => [...new Set(ids)]

async function recordOrFail(deps: Deps, companyId: number, whatsappId: number) {
  const record = await findWhatsappRecord(deps.db, { companyId, whatsappId })
  if (!record) throw new AppError('ERR_NO_WAPP_FOUND')
  return record
}

/** The company's connections; only platform super users may name another company. */
export async function listWhatsapps(deps: Deps, caller: Actor, requestedCompanyId?: number): Promise<Whatsapp[]> {
  const companyId = await targetCompanyId(deps.db, caller, requestedCompanyId)
  const records = await findWhatsappRecords(deps.db, { companyId })
  const admin = isAdmin(caller)
  return records.map((record) => toWhatsapp(record, { admin }))
}

export async function showWhatsapp(deps: Deps, caller: Actor, whatsappId: number): Promise<WhatsappDetail> {
  const record = await recordOrFail(deps, caller.companyId, whatsappId)
  return toWhatsappDetail({ ...record, token: openConnectionToken(deps, record.token) }, { admin: isAdmin(caller) })
}

/** Adds a connection (counts against the plan) and starts its session: the QR code follows in realtime. */
export async function createWhatsapp(deps: Deps, connections: SessionControls, caller: Actor, input: CreateWhatsappBody): Promise<Whatsapp> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const { companyId } = caller
  const name = trimmedName(input.name)
  assertProviderAvailable(deps, input.provider)
  const queueIds = distinct(input.queueIds ?? [])
  assertGreeting(queueIds.length, input.greetingMessage ?? '')
  const { whatsappId, unsetIds } = await deps.db
    .transaction(async (tx) => {
      // Locks the company row: concurrent creations count, and pick the default, one at a time.
      await assertWithinPlanLimit(tx, companyId, 'connections')
      await assertReferences(tx, companyId, { ...input, queueIds })
      const currentDefault = await findDefaultWhatsapp(tx, companyId)
      const isDefault = input.isDefault === true || currentDefault === undefined
      const unset = isDefault && currentDefault ? await unsetDefault(tx, { companyId }) : []
      const [created] = await tx
        .insert(whatsapps)
        .values({
          companyId,
          name,
          isDefault,
          greetingMessage: input.greetingMessage,
          complationMessage: input.complationMessage,
          outOfHoursMessage: input.outOfHoursMessage,
          ratingMessage: input.ratingMessage,
          expiresInactiveMessage: input.expiresInactiveMessage,
          transferQueueId: input.transferQueueId ?? null,
          timeToTransfer: input.timeToTransfer ?? null,
          // §9 defaults come from the table: expiresTicket 0, timeUseBotQueues 0, maxUseBotQueues 3, provider beta.
          expiresTicket: input.expiresTicket,
          timeUseBotQueues: input.timeUseBotQueues,
          maxUseBotQueues: input.maxUseBotQueues,
          provider: input.provider,
          promptId: input.promptId ?? null,
          integrationId: input.integrationId ?? null,
          ...storedConnectionToken(deps, generateConnectionToken()),
          updatedAt: deps.now(),
        })
        .returning({ id: whatsapps.id })
      await replaceWhatsappQueues(tx, { companyId, whatsappId: created!.id, queueIds })
      return { whatsappId: created!.id, unsetIds: unset }
    })
    .catch(nameRace)
  for (const unsetId of unsetIds) await deps.bus.emit('whatsapp.changed', { companyId, action: 'update', whatsappId: unsetId })
  await deps.bus.emit('whatsapp.changed', { companyId, action: 'create', whatsappId })
  // As soon as it exists the session starts, so that the admin gets the QR code to scan.
  await connections.start({ companyId, whatsappId }).catch((error: unknown) => deps.logger.warn('new connection did not start', { companyId, whatsappId, error }))
  return toWhatsapp(await recordOrFail(deps, companyId, whatsappId), { admin: true })
}

/** Edits the form; fields left out keep their value. A change of provider ends the running session. */
export async function updateWhatsapp(
  deps: Deps,
  connections: SessionControls,
  caller: Actor,
  whatsappId: number,
  input: UpdateWhatsappBody,
): Promise<Whatsapp> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const { companyId } = caller
  const name = input.name === undefined ? undefined : trimmedName(input.name)
  assertProviderAvailable(deps, input.provider)
  const queueIds = input.queueIds === undefined ? undefined : distinct(input.queueIds)
  const { current, unsetIds } = await deps.db
    .transaction(async (tx) => {
      await lockCompany(tx, companyId)
      const current = await findCompanyWhatsapp(tx, { companyId, whatsappId })
      if (!current) throw new AppError('ERR_NO_WAPP_FOUND')
      const queueCount = queueIds?.length ?? (await findWhatsappQueueIds(tx, { companyId, whatsappId })).length
      assertGreeting(queueCount, input.greetingMessage ?? current.greetingMessage)
      await assertReferences(tx, companyId, { ...input, queueIds })
      let isDefault = current.isDefault
      let unset: number[] = []
      if (input.isDefault === true && !current.isDefault) {
        unset = await unsetDefault(tx, { companyId, exceptWhatsappId: whatsappId })
        isDefault = true
      } else if (input.isDefault === false && current.isDefault) {
        // Switching the default off would leave the company without one: another must be made default.
        if ((await countOtherWhatsapps(tx, { companyId, whatsappId })) > 0) throw new AppError('ERR_NO_OTHER_WHATSAPP')
      } else if (!current.isDefault && !(await findDefaultWhatsapp(tx, companyId))) {
        // A company found without a default (older data) gets one at the first edit.
        isDefault = true
      }
      await tx
        .update(whatsapps)
        .set({
          name,
          isDefault,
          greetingMessage: input.greetingMessage,
          complationMessage: input.complationMessage,
          outOfHoursMessage: input.outOfHoursMessage,
          ratingMessage: input.ratingMessage,
          expiresInactiveMessage: input.expiresInactiveMessage,
          transferQueueId: input.transferQueueId,
          timeToTransfer: input.timeToTransfer,
          expiresTicket: input.expiresTicket,
          timeUseBotQueues: input.timeUseBotQueues,
          maxUseBotQueues: input.maxUseBotQueues,
          provider: input.provider,
          promptId: input.promptId,
          integrationId: input.integrationId,
          updatedAt: deps.now(),
        })
        .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)))
      if (queueIds !== undefined) await replaceWhatsappQueues(tx, { companyId, whatsappId, queueIds })
      return { current, unsetIds: unset }
    })
    .catch(nameRace)
  if (input.provider !== undefined && input.provider !== current.provider) {
    // The old adapter's session and credentials mean nothing to the new one.
    await connections.stop({ companyId, whatsappId }).catch((error: unknown) => deps.logger.warn('session of a re-provided connection did not stop', { companyId, whatsappId, error }))
  }
  for (const id of [...unsetIds, whatsappId]) await deps.bus.emit('whatsapp.changed', { companyId, action: 'update', whatsappId: id })
  return toWhatsapp(await recordOrFail(deps, companyId, whatsappId), { admin: true })
}

/** Ends the session (the phone forgets the device) and deletes the connection; a deleted default hands over. */
export async function deleteWhatsapp(deps: Deps, connections: SessionControls, caller: Actor, whatsappId: number): Promise<void> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const { companyId } = caller
  if (!(await findCompanyWhatsapp(deps.db, { companyId, whatsappId }))) throw new AppError('ERR_NO_WAPP_FOUND')
  await connections.remove({ companyId, whatsappId })
  const successorId = await deps.db.transaction(async (tx) => {
    await lockCompany(tx, companyId)
    const [deleted] = await tx
      .delete(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)))
      .returning({ isDefault: whatsapps.isDefault })
    if (!deleted) throw new AppError('ERR_NO_WAPP_FOUND')
    if (!deleted.isDefault) return undefined
    const successor = await findSuccessor(tx, { companyId, exceptWhatsappId: whatsappId })
    if (successor) await setDefault(tx, { companyId, whatsappId: successor.id })
    return successor?.id
  })
  await deps.bus.emit('whatsapp.changed', { companyId, action: 'delete', whatsappId })
  if (successorId !== undefined) await deps.bus.emit('whatsapp.changed', { companyId, action: 'update', whatsappId: successorId })
}

/** A new external-API token; the old one stops working at once. */
export async function regenerateToken(deps: Deps, caller: Actor, whatsappId: number): Promise<{ id: number; token: string }> {
  if (!isAdmin(caller)) throw new AppError('ERR_NO_PERMISSION')
  const token = generateConnectionToken()
  const [row] = await deps.db
    .update(whatsapps)
    .set({ ...storedConnectionToken(deps, token), updatedAt: deps.now() })
    .where(and(eq(whatsapps.companyId, caller.companyId), eq(whatsapps.id, whatsappId)))
    .returning({ id: whatsapps.id })
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND')
  // No event: the token is in no view nor frame (only this answer and the admin's detail show it).
  return { id: row.id, token }
}
