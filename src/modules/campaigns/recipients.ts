// Who a campaign sends to, page by page (any size in bounded memory): a contact list's items through
// the contact-lists service, or the people with a ticket carrying the tag through the tickets service.
// A number is INVALID when it is not 8 to 15 digits or when WhatsApp's check said it has no account;
// OPTED_OUT when it answered a stop word; PENDING (to send) otherwise, including items WhatsApp has not
// been asked about yet.
import type { Executor } from '../../../db/client.ts'
import { AppError } from '../../core/errors.ts'
import { listContactListItemsAfter, VALID_ITEMS_PAGE } from '../contact-lists/service.ts'
import { listContactsWithTaggedTickets, TAGGED_CONTACTS_PAGE } from '../tickets/service.ts'
import { findOptedOutNumbers } from './queries.ts'

export type Recipient = { digits: string; itemId: number | null; contactId: number | null; name: string; email: string; status: 'PENDING' | 'INVALID' | 'OPTED_OUT' }

const isWhatsappNumber = (digits: string) => digits.length >= 8 && digits.length <= 15

type Candidate = { number: string; itemId: number | null; contactId: number | null; name: string; email: string; whatsappInvalid: boolean }

/** A page of candidates with their digits and the status their rows start in (one opt-out lookup per page). */
async function withStatus(db: Executor, companyId: number, candidates: Candidate[]): Promise<Recipient[]> {
  const page = candidates.map((candidate) => ({ candidate, digits: candidate.number.replace(/\D/g, '') }))
  const optedOut = await findOptedOutNumbers(db, { companyId, numbers: page.map((entry) => entry.digits) })
  return page.map(({ candidate, digits }) => ({
    digits,
    itemId: candidate.itemId,
    contactId: candidate.contactId,
    name: candidate.name,
    email: candidate.email,
    status: !isWhatsappNumber(digits) || candidate.whatsappInvalid ? 'INVALID' : optedOut.has(digits) ? 'OPTED_OUT' : 'PENDING',
  }))
}

/** The list's recipients, one page at a time, each with the status its shipping row starts in. */
export async function* contactListRecipients(db: Executor, scope: { companyId: number; contactListId: number }): AsyncGenerator<Recipient[]> {
  let afterId: number | undefined
  for (;;) {
    let items
    try {
      items = await listContactListItemsAfter({ db }, { ...scope, ...(afterId === undefined ? {} : { afterId }) })
    } catch (error) {
      // Deleted meanwhile: nobody (left) to send to.
      if (error instanceof AppError && error.code === 'ERR_NO_CONTACT_LIST_FOUND') return
      throw error
    }
    if (items.length === 0) return
    yield withStatus(db, scope.companyId, items.map((item) => ({ number: item.number, itemId: item.id, contactId: null, name: item.name, email: item.email, whatsappInvalid: item.whatsappCheckedAt !== null && !item.isWhatsappValid })))
    afterId = items.at(-1)!.id
    if (items.length < VALID_ITEMS_PAGE) return
  }
}

/** The tag's recipients (people with a ticket carrying it), one page at a time. */
export async function* tagRecipients(db: Executor, scope: { companyId: number; tagId: number }): AsyncGenerator<Recipient[]> {
  let afterContactId: number | undefined
  for (;;) {
    const people = await listContactsWithTaggedTickets({ db }, { ...scope, ...(afterContactId === undefined ? {} : { afterContactId }) })
    if (people.length === 0) return
    yield withStatus(db, scope.companyId, people.map((person) => ({ number: person.number, itemId: null, contactId: person.id, name: person.name, email: person.email, whatsappInvalid: false })))
    afterContactId = people.at(-1)!.id
    if (people.length < TAGGED_CONTACTS_PAGE) return
  }
}

/** A campaign's recipients: its contact list's or its tag's (nobody without either). */
export function campaignRecipients(db: Executor, target: { companyId: number; contactListId: number | null; tagId: number | null }): AsyncGenerator<Recipient[]> {
  if (target.contactListId !== null) return contactListRecipients(db, { companyId: target.companyId, contactListId: target.contactListId })
  if (target.tagId !== null) return tagRecipients(db, { companyId: target.companyId, tagId: target.tagId })
  return (async function* nobody() {})()
}

/** The pre-flight counts (distinct numbers). */
export async function countRecipients(db: Executor, target: { companyId: number; contactListId: number | null; tagId: number | null }) {
  const seen = new Set<string>()
  const counts = { recipients: 0, invalid: 0, optedOut: 0 }
  for await (const page of campaignRecipients(db, target)) {
    for (const recipient of page) {
      if (seen.has(recipient.digits)) continue
      seen.add(recipient.digits)
      counts.recipients += 1
      if (recipient.status === 'INVALID') counts.invalid += 1
      if (recipient.status === 'OPTED_OUT') counts.optedOut += 1
    }
  }
  return counts
}
