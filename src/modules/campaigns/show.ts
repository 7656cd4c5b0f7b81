// GET /campaigns/{id} as §3 shows a campaign: with its contact list's contacts and its shipping rows
// (each with deliveredAt). A Whaticket-family report page counts them itself (valid numbers, delivered,
// read). A campaign may have 100k recipients and more, so the body is streamed: the campaign, then
// each array read a page at a time by its unique key (list and number), so the memory is one page
// whatever the size, and the rows are read once each even while the campaign runs.
import { and, asc, eq, gt } from 'drizzle-orm'
import { campaignShipping, contactListItems } from '../../../db/schema/index.ts'
import type { Executor } from '../../../db/client.ts'
import { AppError } from '../../core/errors.ts'
import type { Deps } from '../deps.ts'
import type { CampaignContact, CampaignShippingItem } from './model.ts'
import { loadCampaign } from './records.ts'
import { toCampaign } from './view.ts'

const PAGE = 2_000

async function contactPage(db: Executor, scope: { companyId: number; contactListId: number }, afterNumber: string): Promise<CampaignContact[]> {
  return db
    .select({ id: contactListItems.id, name: contactListItems.name, number: contactListItems.number, email: contactListItems.email, isWhatsappValid: contactListItems.isWhatsappValid })
    .from(contactListItems)
    .where(and(eq(contactListItems.contactListId, scope.contactListId), eq(contactListItems.companyId, scope.companyId), gt(contactListItems.number, afterNumber)))
    .orderBy(asc(contactListItems.number))
    .limit(PAGE)
}

async function shippingPage(db: Executor, scope: { companyId: number; campaignId: number }, afterNumber: string): Promise<CampaignShippingItem[]> {
  return db
    .select({
      id: campaignShipping.id,
      contactId: campaignShipping.contactId,
      number: campaignShipping.number,
      status: campaignShipping.status,
      ack: campaignShipping.ack,
      sentAt: campaignShipping.sentAt,
      deliveredAt: campaignShipping.deliveredAt,
      readAt: campaignShipping.readAt,
      repliedAt: campaignShipping.repliedAt,
    })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.campaignId, scope.campaignId), eq(campaignShipping.companyId, scope.companyId), gt(campaignShipping.number, afterNumber)))
    .orderBy(asc(campaignShipping.number))
    .limit(PAGE)
}

/** The JSON text of an array whose rows are read a page at a time after the last one's number. */
async function* jsonArray<Row extends { number: string }>(read: (afterNumber: string) => Promise<Row[]>): AsyncGenerator<string> {
  let after = ''
  let first = true
  for (;;) {
    const rows = await read(after)
    if (rows.length > 0) {
      yield (first ? '' : ',') + rows.map((row) => JSON.stringify(row)).join(',')
      first = false
      after = rows[rows.length - 1]!.number
    }
    if (rows.length < PAGE) return
  }
}

// Where the arrays go in the campaign's JSON: strings no campaign field can hold (JSON.stringify
// writes a NUL as \u0000, and a stored text never holds one: PostgreSQL refuses it).
const CONTACTS_SLOT = '\u0000contacts\u0000'
const SHIPPING_SLOT = '\u0000shipping\u0000'

/** The campaign with `contactList.contacts` and `shipping`, as a streamed JSON body; ERR_NO_CAMPAIGN_FOUND before anything is sent. */
export async function showCampaignWithRecipients(deps: Deps, caller: { companyId: number }, campaignId: number): Promise<ReadableStream<Uint8Array>> {
  const { companyId } = caller
  const row = await loadCampaign(deps, { companyId, campaignId })
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND')
  const campaign = toCampaign(deps, row)
  const contactListId = campaign.contactList?.id
  const head = JSON.stringify({ ...campaign, contactList: campaign.contactList && { ...campaign.contactList, contacts: CONTACTS_SLOT }, shipping: SHIPPING_SLOT })
  const parts = async function* () {
    const [beforeContacts, rest] = contactListId === undefined ? [undefined, head] : head.split(JSON.stringify(CONTACTS_SLOT))
    if (beforeContacts !== undefined) {
      yield `${beforeContacts}[`
      yield* jsonArray((after) => contactPage(deps.db, { companyId, contactListId: contactListId! }, after))
      yield ']'
    }
    const [beforeShipping, end] = rest!.split(JSON.stringify(SHIPPING_SLOT))
    yield `${beforeShipping}[`
    yield* jsonArray((after) => shippingPage(deps.db, { companyId, campaignId }, after))
    yield `]${end}`
  }
  const iterator = parts()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await iterator.return(undefined)
    },
  })
}
