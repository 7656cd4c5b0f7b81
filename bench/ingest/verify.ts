// After the runs: what the pipeline stored is complete and consistent.
import type { BenchWorld } from './setup.ts'
import { contactNumber, expectedPairs, warmUpNumber } from './workload.ts'

export type Check = { name: string; ok: boolean; detail: string }

export async function verifyStore(world: BenchWorld, input: { expectedMessages: number; sequences: number; warmUpCustomers: number }): Promise<Check[]> {
  const sql = world.client
  const { companyId, whatsappIds, options } = world
  const checks: Check[] = []
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })

  const [stored] = await sql<{ total: number; wids: number }[]>`
    select count(*)::int as total, count(distinct (whatsapp_id, wid))::int as wids from messages where company_id = ${companyId}`
  check('stored messages = sent', stored!.total === input.expectedMessages, `${stored!.total} stored, ${input.expectedMessages} sent`)
  check('no WhatsApp id stored twice', stored!.wids === stored!.total, `${stored!.wids} distinct ids`)

  const numbers = [...Array.from({ length: options.contacts }, (_, contact) => contactNumber(contact)), ...Array.from({ length: input.warmUpCustomers }, (_, index) => warmUpNumber(index))]
  const [contactCount] = await sql<{ total: number; distinct: number }[]>`
    select count(*)::int as total, count(distinct number)::int as distinct from contacts where company_id = ${companyId}`
  check('one contact per number', contactCount!.total === numbers.length && contactCount!.distinct === numbers.length, `${contactCount!.total} contacts, ${numbers.length} numbers wrote in`)

  const pairs = await sql<{ number: string; whatsapp_id: number; total: number; open: number }[]>`
    select c.number, t.whatsapp_id, count(*)::int as total, count(*) filter (where t.status <> 'closed')::int as open
    from tickets t join contacts c on c.id = t.contact_id and c.company_id = t.company_id
    where t.company_id = ${companyId}
    group by c.number, t.whatsapp_id`
  const duplicates = pairs.filter((pair) => pair.total > 1)
  check('no duplicate tickets for a contact and connection', duplicates.length === 0, duplicates.length ? `${duplicates.length} pairs with several tickets, e.g. ${JSON.stringify(duplicates[0])}` : `${pairs.length} tickets`)
  const indexOfNumber = new Map(Array.from({ length: options.contacts }, (_, contact) => [contactNumber(contact), contact]))
  const indexOfConnection = new Map(whatsappIds.map((id, index) => [id, index]))
  const expected = expectedPairs(input.sequences, options.contacts, options.connections)
  const openPairs = new Set<string>()
  let wrongOpen = 0
  for (const pair of pairs) {
    const contact = indexOfNumber.get(pair.number)
    if (contact === undefined) continue
    if (pair.open !== 1) wrongOpen++
    openPairs.add(`${contact}:${indexOfConnection.get(pair.whatsapp_id)}`)
  }
  const missing = [...expected].filter((pair) => !openPairs.has(pair)).length
  const extra = [...openPairs].filter((pair) => !expected.has(pair)).length
  check(
    'exactly one open ticket per contact and connection written on',
    wrongOpen === 0 && missing === 0 && extra === 0,
    `${expected.size} expected, ${openPairs.size} found, ${wrongOpen} with open != 1, ${missing} missing, ${extra} unexpected`,
  )

  const [unread] = await sql<{ unread: number }[]>`select coalesce(sum(unread_messages), 0)::int as unread from tickets where company_id = ${companyId}`
  check('unread counters add up (no lost update)', unread!.unread === input.expectedMessages, `${unread!.unread} unread over all tickets`)

  const [mismatch] = await sql<{ total: number }[]>`
    select count(*)::int as total from messages m join tickets t on t.id = m.ticket_id
    where m.company_id = ${companyId} and (t.contact_id <> m.contact_id or t.whatsapp_id <> m.whatsapp_id)`
  check("every message is in its contact's ticket on its connection", mismatch!.total === 0, `${mismatch!.total} misplaced`)

  const frames = [world.admin, ...world.agents].map((probe) => `${probe.label}: ${probe.created}`)
  const allDelivered = [world.admin, ...world.agents].every((probe) => probe.created === input.expectedMessages)
  check('every socket got every appMessage create', allDelivered, frames.join(', '))
  return checks
}
