// Contacts as WhatsApp reveals them: one per (company, number), named by WhatsApp when we only knew
// the number, with a profile picture looked up at most once a day.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { contacts } from '../../../db/schema/index.ts'
import type { ConnectionRef, ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { toContactSummary, type ContactRow } from './contact-row.ts'
import type { DomainEvents } from '../events.ts'

export type ContactChange = 'create' | 'update' | undefined

const pictureRefreshMs = 24 * 3600 * 1000

async function findContactByNumber(db: Executor, companyId: number, number: string): Promise<ContactRow | undefined> {
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
    .limit(1)
  return contact
}

/** What WhatsApp told us that the stored contact lacks: a real name for a number-only name, the LID. */
function missingDetails(contact: ContactRow, input: { name?: string; lid?: string }): Partial<ContactRow> {
  const changes: Partial<ContactRow> = {}
  if (input.name && (contact.name === contact.number || contact.name.trim() === '') && input.name !== contact.name) changes.name = input.name
  if (input.lid && input.lid !== contact.lid) changes.lid = input.lid
  return changes
}

/**
 * Finds or creates the contact of a number. Two writers racing for a new number both end up with
 * the one row the unique index (company, number) lets through.
 */
export async function upsertContact(
  db: Executor,
  input: {
    companyId: number
    whatsappId: number | null
    number: string
    name?: string
    lid?: string
    isGroup: boolean
    now: Date
    /** The contact as the caller read it in this transaction (null: there is none); read here when absent. */
    existing?: ContactRow | null
  },
): Promise<{ contact: ContactRow; change: ContactChange }> {
  let contact = input.existing === undefined ? await findContactByNumber(db, input.companyId, input.number) : (input.existing ?? undefined)
  if (!contact) {
    const [created] = await db
      .insert(contacts)
      .values({
        companyId: input.companyId,
        number: input.number,
        name: input.name ?? input.number,
        isGroup: input.isGroup,
        lid: input.lid ?? null,
        whatsappId: input.whatsappId,
      })
      .onConflictDoNothing()
      .returning()
    if (created) return { contact: created, change: 'create' }
    contact = await findContactByNumber(db, input.companyId, input.number)
    if (!contact) throw new Error(`contact ${input.number} of company ${input.companyId} vanished while being created`)
  }
  const changes = missingDetails(contact, input)
  if (Object.keys(changes).length === 0) return { contact, change: undefined }
  const [updated] = await db
    .update(contacts)
    .set({ ...changes, updatedAt: input.now })
    .where(and(eq(contacts.companyId, input.companyId), eq(contacts.id, contact.id)))
    .returning()
  return { contact: updated ?? contact, change: 'update' }
}

type ContactUpdated = DomainEvents['contact.updated']

/**
 * A contact update WhatsApp pushed, applied in a transaction that stages its contact.updated (the
 * webhooks' outbox commits with it); the caller emits the returned event after. Undefined: no change.
 */
export async function updateContactFromWhatsApp(
  deps: Pick<Deps, 'db' | 'bus'>,
  input: { companyId: number; number: string; name?: string; lid?: string; now: Date },
): Promise<ContactUpdated | undefined> {
  return deps.db.transaction(async (tx) => {
    const updated = await applyContactUpdate(tx, input)
    if (!updated) return undefined
    const event: ContactUpdated = { companyId: input.companyId, contact: toContactSummary(updated) }
    await deps.bus.stage(tx, 'contact.updated', event)
    return event
  })
}

/** A contact update WhatsApp pushed (address book, LID mapping): applied to a contact we already have. */
export async function applyContactUpdate(
  db: Executor,
  input: { companyId: number; number: string; name?: string; lid?: string; now: Date },
): Promise<ContactRow | undefined> {
  const contact = await findContactByNumber(db, input.companyId, input.number)
  if (!contact) return undefined
  const changes = missingDetails(contact, input)
  if (Object.keys(changes).length === 0) return undefined
  const [updated] = await db
    .update(contacts)
    .set({ ...changes, updatedAt: input.now })
    .where(and(eq(contacts.companyId, input.companyId), eq(contacts.id, contact.id)))
    .returning()
  return updated
}

/**
 * Looks the profile picture up when the last look is a day old (or never happened), through the
 * connection's provider; skipped when no provider is at hand. Returns its contact.updated, staged in
 * the update's transaction, when the picture changed; the caller emits it.
 */
export async function refreshProfilePicture(
  deps: Pick<Deps, 'db' | 'bus' | 'logger' | 'now'>,
  registry: ConnectionRegistry | undefined,
  input: { connection: ConnectionRef; contact: ContactRow },
): Promise<ContactUpdated | undefined> {
  const { contact, connection } = input
  const now = deps.now()
  if (!registry || contact.isGroup) return undefined
  if (contact.profilePicUpdatedAt && now.getTime() - contact.profilePicUpdatedAt.getTime() < pictureRefreshMs) return undefined
  let provider
  try {
    provider = registry.providerFor(connection)
  } catch {
    return undefined
  }
  let url: string | undefined
  try {
    url = await provider.profilePictureUrl(contact.number)
  } catch (error) {
    // Privacy settings or a network hiccup: try again tomorrow, not on the next message.
    deps.logger.debug('profile picture lookup failed', { contactId: contact.id, error })
    url = undefined
  }
  const profilePicUrl = url ?? contact.profilePicUrl
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(contacts)
      .set({ profilePicUrl, profilePicUpdatedAt: now })
      .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.id, contact.id)))
      .returning()
    if (!updated || updated.profilePicUrl === contact.profilePicUrl) return undefined
    const event: ContactUpdated = { companyId: connection.companyId, contact: toContactSummary(updated) }
    await deps.bus.stage(tx, 'contact.updated', event)
    return event
  })
}
