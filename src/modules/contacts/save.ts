// Creating and editing a contact by hand. The typed number becomes digits with the country code and,
// when the company has a live WhatsApp connection, WhatsApp's own form of it: the form inbound
// messages will carry, so the contact and the customer who writes in are one row, not two.
import { and, eq, notInArray } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contactExtraInfo, contacts } from '../../../db/schema/index.ts'
import { toContactSummary, type ContactRow } from './contact-row.ts'
import { onlyDigits } from './number.ts'
import type { ConnectionRegistry, WhatsAppProvider } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import { normalizeName } from '../companies/fields.ts'
import type { ContactDetail, CreateContactBody, ExtraInfoInput, UpdateContactBody } from './model.ts'
import { MAX_NUMBER_DIGITS, MIN_NUMBER_DIGITS, normaliseTypedNumber } from './number.ts'
import { findCompanyConnections, findContactIdByNumber, findContactRow, findExtraInfo } from './queries.ts'
import { showContact } from './service.ts'
import { isAdmin, type Actor } from '../../contracts/roles.ts'
import { seesAllOpenTicketsOfContact } from '../tickets/service.ts'

const numberUnique = 'contacts_company_number_unique'

function typedNumber(raw: string): string {
  const number = normaliseTypedNumber(raw)
  if (!number) throw invalidField('number', `number must have ${MIN_NUMBER_DIGITS} to ${MAX_NUMBER_DIGITS} digits, with area code`)
  return number
}

/** A live provider of the company, the default connection first; none when no session is up here. */
function liveProvider(registry: ConnectionRegistry, companyId: number, connections: { id: number }[]): WhatsAppProvider | undefined {
  for (const connection of connections) {
    try {
      return registry.providerFor({ companyId, whatsappId: connection.id })
    } catch {
      // Not connected (or not reachable): the next one may be.
    }
  }
  return undefined
}

/**
 * WhatsApp's digits for the number when a connection can ask (ERR_WAPP_INVALID_CONTACT when WhatsApp
 * does not know it); without a live connection the typed number is kept, so contacts can be entered
 * before any phone is paired.
 */
async function verifiedNumber(deps: Deps, registry: ConnectionRegistry, companyId: number, number: string): Promise<string> {
  const provider = liveProvider(registry, companyId, await findCompanyConnections(deps.db, companyId))
  if (!provider) return number
  let result: { exists: boolean; number: string }
  try {
    result = await provider.checkNumber(number)
  } catch (error) {
    deps.logger.warn('ERR_WAPP_CHECK_CONTACT', { companyId, whatsappId: provider.whatsappId, error })
    throw new AppError('ERR_WAPP_CHECK_CONTACT')
  }
  if (!result.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT')
  return onlyDigits(result.number) || number
}

async function duplicate(db: Executor, companyId: number, number: string): Promise<AppError> {
  const contactId = await findContactIdByNumber(db, { companyId, number })
  return new AppError('ERR_DUPLICATED_CONTACT', contactId === undefined ? undefined : { contactId })
}

/** Trimmed fields; a name that is only blanks is refused (422) rather than stored. */
function cleanExtraInfo(items: ExtraInfoInput[]): ExtraInfoInput[] {
  return items.map((item, index) => {
    const name = item.name.trim()
    if (!name) throw invalidField(`extraInfo.${index}.name`, 'extraInfo name is required, up to 100 characters')
    return { id: item.id, name, value: (item.value ?? '').trim() }
  })
}

/**
 * The contact's extra fields become exactly `items`: those with an id of this contact are edited,
 * the others added, and the contact's fields left out are removed. Every statement is scoped by
 * company and contact, so an id of another contact can neither be edited nor removed.
 */
async function replaceExtraInfo(tx: Executor, scope: { companyId: number; contactId: number }, items: ExtraInfoInput[], now: Date): Promise<void> {
  const ownIds = new Set((await findExtraInfo(tx, scope)).map((field) => field.id))
  const kept = items.filter((item) => item.id !== undefined && ownIds.has(item.id))
  const keptIds = kept.map((item) => item.id as number)
  const owned = and(eq(contactExtraInfo.companyId, scope.companyId), eq(contactExtraInfo.contactId, scope.contactId))
  await tx.delete(contactExtraInfo).where(keptIds.length > 0 ? and(owned, notInArray(contactExtraInfo.id, keptIds)) : owned)
  for (const item of kept) {
    await tx
      .update(contactExtraInfo)
      .set({ name: item.name, value: item.value ?? '', updatedAt: now })
      .where(and(owned, eq(contactExtraInfo.id, item.id as number)))
  }
  const added = items.filter((item) => !kept.includes(item))
  if (added.length > 0) await tx.insert(contactExtraInfo).values(added.map((item) => ({ ...scope, name: item.name, value: item.value ?? '' })))
}

export async function createContact(deps: Deps, registry: ConnectionRegistry, companyId: number, input: CreateContactBody): Promise<ContactDetail> {
  const name = normalizeName(input.name)
  const extraInfo = cleanExtraInfo(input.extraInfo ?? [])
  const number = await verifiedNumber(deps, registry, companyId, typedNumber(input.number))
  const created = await deps.db
    .transaction(async (tx) => {
      // The unique index decides between two people adding the same number at once.
      const [row] = await tx
        .insert(contacts)
        .values({ companyId, name, number, email: input.email?.trim() ?? '' })
        .onConflictDoNothing()
        .returning()
      if (!row) throw await duplicate(tx, companyId, number)
      if (extraInfo.length > 0) await tx.insert(contactExtraInfo).values(extraInfo.map((item) => ({ companyId, contactId: row.id, name: item.name, value: item.value ?? '' })))
      // Staged here: what its committing listeners write (the webhooks' outbox) commits with the contact.
      const event = { companyId, contact: toContactSummary(row) }
      await deps.bus.stage(tx, 'contact.created', event)
      return event
    })
    .catch(async (error: unknown) => {
      if (isUniqueViolation(error, numberUnique)) throw await duplicate(deps.db, companyId, number)
      throw error
    })
  await deps.bus.emit('contact.created', created)
  return showContact(deps, { companyId, contactId: created.contact.id })
}

/**
 * Changing a contact's number redirects the replies of its open tickets: an admin may, anyone else only
 * when he can see every one of them (an agent cannot redirect a conversation of another queue). A
 * contact without an open ticket redirects nothing: agents still fix the numbers of contacts they add.
 */
async function assertMayChangeNumber(deps: Deps, actor: Actor, scope: { companyId: number; contactId: number }): Promise<void> {
  if (isAdmin(actor)) return
  if (!(await seesAllOpenTicketsOfContact(deps.db, { ...scope, userId: actor.userId }))) throw new AppError('ERR_NO_PERMISSION')
}

export async function updateContact(
  deps: Deps,
  registry: ConnectionRegistry,
  actor: Actor,
  scope: { companyId: number; contactId: number },
  input: UpdateContactBody,
): Promise<ContactDetail> {
  const { companyId, contactId } = scope
  const current = await findContactRow(deps.db, scope)
  if (!current) throw new AppError('ERR_NO_CONTACT_FOUND')
  const changes: Partial<ContactRow> = {}
  if (input.name !== undefined) changes.name = normalizeName(input.name)
  if (input.email !== undefined) changes.email = input.email.trim()
  const extraInfo = input.extraInfo === undefined ? undefined : cleanExtraInfo(input.extraInfo)
  if (input.number !== undefined) {
    const typed = typedNumber(input.number)
    if (typed !== current.number) await assertMayChangeNumber(deps, actor, scope)
    // Re-saving the form with the number unchanged needs no WhatsApp round trip.
    const number = typed === current.number ? typed : await verifiedNumber(deps, registry, companyId, typed)
    if (number !== current.number) {
      const owner = await findContactIdByNumber(deps.db, { companyId, number })
      if (owner !== undefined && owner !== contactId) throw new AppError('ERR_DUPLICATED_CONTACT', { contactId: owner })
      changes.number = number
    }
  }
  const now = deps.now()
  const updated = await deps.db
    .transaction(async (tx) => {
      const [row] = await tx
        .update(contacts)
        .set({ ...changes, updatedAt: now })
        .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
        .returning()
      // Deleted between the read and the write.
      if (!row) throw new AppError('ERR_NO_CONTACT_FOUND')
      if (extraInfo !== undefined) await replaceExtraInfo(tx, scope, extraInfo, now)
      const event = { companyId, contact: toContactSummary(row) }
      await deps.bus.stage(tx, 'contact.updated', event)
      return event
    })
    .catch(async (error: unknown) => {
      if (isUniqueViolation(error, numberUnique) && changes.number) throw await duplicate(deps.db, companyId, changes.number)
      throw error
    })
  await deps.bus.emit('contact.updated', updated)
  return showContact(deps, scope)
}

