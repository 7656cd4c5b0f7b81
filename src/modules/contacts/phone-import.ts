// Importing the connected phone's WhatsApp contacts (§7 POST /contacts/import). The provider lists
// them where it can (the simulator; a session on another instance answers through its owner). Baileys
// v7 keeps no contact store, so a Baileys connection answers ERR_WAPP_CONTACTS_UNAVAILABLE: the
// contacts it reports as they appear (contacts.upsert) already reach the inbound pipeline, which
// names the contacts we have.
import { and, eq, inArray } from 'drizzle-orm'
import { contacts } from '../../../db/schema/index.ts'
import { toContactSummary, type ContactRow } from './contact-row.ts'
import { onlyDigits, realName } from './number.ts'
import type { ConnectionRegistry, PhoneContact } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { providerOf } from '../messages/send.ts'
import { findCompanyWhatsapp, findDefaultWhatsapp } from '../whatsapp/service.ts'
import type { ImportResult } from './model.ts'
import { MAX_NUMBER_DIGITS, MIN_NUMBER_DIGITS } from './number.ts'
import { findContactsByNumbers } from './queries.ts'
import { toContactItem } from './upload.ts'

const INSERT_BATCH = 1000
const NAME_LENGTH = 50

async function connectionOf(deps: Deps, companyId: number, whatsappId: number | undefined): Promise<number> {
  if (whatsappId !== undefined) {
    const connection = await findCompanyWhatsapp(deps.db, { companyId, whatsappId })
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND')
    return connection.id
  }
  const byDefault = await findDefaultWhatsapp(deps.db, companyId)
  if (!byDefault) throw new AppError('ERR_NO_DEF_WAPP_FOUND')
  return byDefault.id
}

async function phoneContacts(deps: Deps, registry: ConnectionRegistry, connection: { companyId: number; whatsappId: number }): Promise<PhoneContact[]> {
  const provider = providerOf(registry, connection)
  if (!provider.listContacts) throw new AppError('ERR_WAPP_CONTACTS_UNAVAILABLE', { reason: 'unsupported' })
  try {
    return await provider.listContacts()
  } catch (error) {
    if (error instanceof AppError) throw error
    deps.logger.warn('listing the phone contacts failed', { ...connection, error })
    throw new AppError('ERR_WAPP_CONTACTS_UNAVAILABLE', { reason: 'failed' })
  }
}

type Entry = { number: string; name: string | undefined }

/** People with a phone number (not groups, not broadcast lists), one entry per number, named when the phone names them. */
function usableEntries(listed: PhoneContact[]): { entries: Entry[]; invalid: number } {
  const byNumber = new Map<string, Entry>()
  let invalid = 0
  for (const contact of listed) {
    // A person's JID (or bare digits); not a group (@g.us, or an old "creator-timestamp" id), a LID or a list.
    const user = contact.number.split('@')[0]?.split(':')[0] ?? ''
    const isPerson = (!contact.number.includes('@') || contact.number.endsWith('@s.whatsapp.net')) && !user.includes('-')
    const number = onlyDigits(user)
    if (!isPerson || number.length < MIN_NUMBER_DIGITS || number.length > MAX_NUMBER_DIGITS) {
      invalid += 1
      continue
    }
    const name = realName(contact.name, number)?.slice(0, NAME_LENGTH)
    const known = byNumber.get(number)
    if (!known || (!known.name && name)) byNumber.set(number, { number, name })
  }
  return { entries: [...byNumber.values()], invalid }
}

export async function importPhoneContacts(deps: Deps, registry: ConnectionRegistry, companyId: number, input: { whatsappId?: number }): Promise<ImportResult> {
  const whatsappId = await connectionOf(deps, companyId, input.whatsappId)
  const { entries, invalid } = usableEntries(await phoneContacts(deps, registry, { companyId, whatsappId }))
  const now = deps.now()

  const { created, renamed, createdEvents, renamedEvents } = await deps.db.transaction(async (tx) => {
    const created: ContactRow[] = []
    for (let start = 0; start < entries.length; start += INSERT_BATCH) {
      const batch = entries.slice(start, start + INSERT_BATCH)
      const inserted = await tx
        .insert(contacts)
        .values(batch.map((entry) => ({ companyId, number: entry.number, name: entry.name ?? entry.number, whatsappId })))
        .onConflictDoNothing()
        .returning()
      created.push(...inserted)
    }
    // Contacts we know only by their number get the phone's name, as the inbound pipeline does (one
    // statement each: few contacts are nameless, and only those are written).
    const createdNumbers = new Set(created.map((row) => row.number))
    const named = entries.filter((entry) => entry.name && !createdNumbers.has(entry.number))
    const existing = await findContactsByNumbers(tx, { companyId, numbers: named.map((entry) => entry.number) })
    const toRename = named.filter((entry) => {
      const contact = existing.get(entry.number)
      return contact !== undefined && (contact.name === entry.number || contact.name.trim() === '')
    })
    const renamed: ContactRow[] = []
    for (const entry of toRename) {
      const [row] = await tx
        .update(contacts)
        .set({ name: entry.name as string, updatedAt: now })
        .where(and(eq(contacts.companyId, companyId), eq(contacts.number, entry.number), inArray(contacts.name, [entry.number, ''])))
        .returning()
      if (row) renamed.push(row)
    }
    // Staged here: the webhooks' outbox rows commit with the contacts.
    const createdEvents = created.map((row) => ({ companyId, contact: toContactSummary(row) }))
    const renamedEvents = renamed.map((row) => ({ companyId, contact: toContactSummary(row) }))
    for (const event of createdEvents) await deps.bus.stage(tx, 'contact.created', event)
    for (const event of renamedEvents) await deps.bus.stage(tx, 'contact.updated', event)
    return { created, renamed, createdEvents, renamedEvents }
  })

  for (const event of createdEvents) await deps.bus.emit('contact.created', event)
  for (const event of renamedEvents) await deps.bus.emit('contact.updated', event)
  const byName = (left: ContactRow, right: ContactRow) => left.name.localeCompare(right.name) || left.id - right.id
  return {
    newContacts: created.sort(byName).map(toContactItem),
    updatedContacts: renamed.sort(byName).map(toContactItem),
    unchanged: entries.length - created.length - renamed.length,
    invalid,
  }
}
