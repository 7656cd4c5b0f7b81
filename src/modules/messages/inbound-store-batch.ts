// Several inbound messages of one company (on any of its connections) in one transaction (see
// channels/inbound/inbound-writer.ts for who gathers them). Each message gets exactly what storeInbound would give it: its contact, its open
// ticket, one row per WhatsApp id, the ticket's last message and unread count, the ticket view as of
// the commit.
//
// One statement does it all (a data-modifying CTE, `batchStatement` below): it skips the messages
// stored already, reads the contacts and their open tickets, creates the missing contacts (and fills
// in a name or LID WhatsApp just told us), creates the missing tickets, inserts the messages and
// moves the tickets, and returns per message its contact, ticket (with the ticket view's extras),
// message and quoted message as JSON. The input is one JSON parameter, so the statement's text is the
// same for every batch; no query builder runs per message (building a many-row INSERT and mapping its
// RETURNING through Drizzle was most of the JavaScript cost of a message).
//
// The batch holds at most one message per contact (the writer sees to it), so each contact and
// ticket is touched by one message and the per-message results are exact.
//
// What one statement cannot do, it reports and the batch is redone: a contact or ticket that another
// transaction created meanwhile (ON CONFLICT DO NOTHING waits for it, but this statement's snapshot
// cannot read it back: `ConcurrentInsert`, redone once the other committed), a message another
// transaction stored meanwhile after this one created a contact or a ticket for it (`StoredAlready`),
// a ticket closed meanwhile (`TicketClosedMeanwhile`).
import { getTableColumns, type Column } from 'drizzle-orm'
import type { Database, Transaction } from '../../../db/client.ts'
import { executePreparedText } from '../../../db/prepared.ts'
import { contacts, messages, tickets } from '../../../db/schema/index.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { ContactChange } from '../contacts/inbound-contacts.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import { ticketViewOf, type TicketViewExtras } from '../tickets/view.ts'
import { lastMessagePreview, TicketClosedMeanwhile, type InboundRecord, type OnStored, type StoredInbound } from './inbound-store.ts'
import type { MessageRow } from './message-row.ts'
import type { MessageView } from './model.ts'
import { storableRawJson } from './storable.ts'

export type BatchItem = { whatsappId: number; record: InboundRecord; media?: { path: string; name: string } }

/** A message's identity: its WhatsApp id is unique per connection. */
export function messageKey(item: { whatsappId: number; record: { wid: string } }): string {
  return `${item.whatsappId}:${item.record.wid}`
}

/**
 * Some messages were stored already (a redelivery) and the batch wrote a contact or a ticket for
 * them: storeInbound would have rolled that back, so the batch is rolled back and redone without them.
 */
export class StoredAlready extends Error {
  /** messageKey of each. */
  constructor(readonly keys: ReadonlySet<string>) {
    super('some messages of the batch were stored already')
  }
}

/**
 * Another transaction created a contact or an open ticket this batch needed, after the statement's
 * snapshot was taken: rolled back and redone (the conflict waited for that transaction to end, so the
 * next statement reads its rows).
 */
export class ConcurrentInsert extends Error {
  constructor() {
    super('a contact or ticket of the batch was created by another transaction meanwhile')
  }
}

// JSON rows (row_to_json: snake_case keys, timestamps as ISO text) to the rows Drizzle would give,
// through each column's own driver mapping (timestamps to Date, bigint to number...).
type RowMapper<Row> = (json: Record<string, unknown>) => Row

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

function rowMapper<Row>(table: Record<string, Column>): RowMapper<Row> {
  const columns = Object.entries(table).map(([key, column]) => ({ key, name: snakeCase(key), column }))
  return (json) => {
    const row: Record<string, unknown> = {}
    for (const { key, name, column } of columns) {
      const value = json[name]
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
    }
    return row as Row
  }
}

const contactOf = rowMapper<ContactRow>(getTableColumns(contacts))
const ticketOf = rowMapper<TicketRow>(getTableColumns(tickets))
const messageOf = rowMapper<MessageRow>(getTableColumns(messages))

/** The ticket view's extras (ticketViewExtras in tickets/view.ts) for a ticket row named `t`. */
const viewExtras = `
  (select u.name from users u where u.id = t.user_id and u.company_id = t.company_id) as user_name,
  (select json_build_object('name', q.name, 'color', q.color) from queues q where q.id = t.queue_id and q.company_id = t.company_id) as queue,
  (select w.name from whatsapps w where w.id = t.whatsapp_id and w.company_id = t.company_id) as whatsapp_name,
  (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) order by g.name), '[]'::json)
     from ticket_tags tt join tags g on g.id = tt.tag_id and g.company_id = t.company_id
    where tt.ticket_id = t.id) as tags`

// What JavaScript's String.prototype.trim removes: a name of only these is no name (missingDetails in inbound-contacts.ts).
const blankName = `'^[\\s\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*$'`

/**
 * $1: the messages as JSON (see BatchInput), $2: the company, $3: now. Contacts are created in the
 * order of their numbers and tickets in the order of their contacts: two transactions creating the
 * same ones take the unique indexes' locks in the same order and cannot deadlock.
 */
const batchStatement = `
with input as (
  select * from json_to_recordset($1) as x(
    i integer, whatsapp_id integer, number text, name text, lid text, is_group boolean, wid text, body text,
    media_type text, media_path text, media_name text, from_me boolean, quoted_wid text, participant text,
    raw jsonb, created_at timestamptz, preview text)
),
-- A WhatsApp id stored already (a redelivery) touches nothing.
-- The lookups of a message (here, its contact, its open ticket) are each a LATERAL ... LIMIT 1, one
-- probe of a unique index per message: the statement runs on a generic plan, made from the statistics
-- of the moment it was prepared, and a plain join was planned as a scan of the whole table whenever
-- they said it was small (a new server), however large it grew afterwards. "is not true" rather than
-- "is null": the planner then expects half the batch to be fresh, not 0.5 % of it, and plans the
-- joins below for a batch rather than for one row (nested loops over every pair of messages).
fresh as (
  select x.* from input x
  left join lateral (select true as stored from messages m where m.whatsapp_id = x.whatsapp_id and m.wid = x.wid limit 1) m on true
  where m.stored is not true
),
found_contacts as (
  select x.i, c.id, c as row,
         (x.name <> '' and (c.name = c.number or c.name ~ ${blankName}) and x.name <> c.name) as new_name,
         (x.lid <> '' and x.lid is distinct from c.lid) as new_lid
  from fresh x join lateral (select * from contacts c where c.company_id = $2 and c.number = x.number limit 1) c on true
),
new_contacts as (
  insert into contacts (company_id, number, name, is_group, lid, whatsapp_id)
  select $2, x.number, coalesce(x.name, x.number), x.is_group, x.lid, x.whatsapp_id
  from fresh x
  where not exists (select 1 from found_contacts f where f.i = x.i)
  order by x.number
  on conflict do nothing
  returning *
),
-- What WhatsApp told us that a stored contact lacks: a real name for a number-only one, the LID.
changed_contacts as (
  update contacts c
  set name = case when f.new_name then x.name else c.name end,
      lid = case when f.new_lid then x.lid else c.lid end,
      updated_at = $3
  from found_contacts f join fresh x on x.i = f.i
  where c.company_id = $2 and c.id = f.id and (f.new_name or f.new_lid)
    -- The ids once more as an array: the contacts are then read by their key, where a plan made with
    -- stale statistics would read every contact of the company to join them.
    and c.id = any (array(select f.id from found_contacts f where f.new_name or f.new_lid))
  returning c.*
),
contact_of as (
  select x.i, n.id, row_to_json(n) as row, 'create' as change from new_contacts n join fresh x on x.number = n.number
  union all
  select f.i, f.id, coalesce((select row_to_json(u) from changed_contacts u where u.id = f.id), row_to_json(f.row)),
         case when f.new_name or f.new_lid then 'update' end
  from found_contacts f
),
-- Through the unique index of open tickets (tickets_one_open_per_contact_connection).
open_tickets as (
  select co.i, t.id
  from contact_of co join fresh x on x.i = co.i
  join lateral (
    select t.id from tickets t
    where t.company_id = $2 and t.contact_id = co.id and coalesce(t.whatsapp_id, 0) = x.whatsapp_id and t.status <> 'closed'
    limit 1
  ) t on true
),
-- A new ticket is written with its first message's changes (its UPDATE below would not see it).
new_tickets as (
  insert into tickets as t (company_id, contact_id, whatsapp_id, status, is_group, last_message, last_message_at, unread_messages, updated_at)
  select $2, co.id, x.whatsapp_id, 'pending', x.is_group, x.preview, x.created_at, case when x.from_me then 0 else 1 end, $3
  from contact_of co join fresh x on x.i = co.i
  where not exists (select 1 from open_tickets o where o.i = co.i)
  order by co.id
  on conflict do nothing
  returning t.*, ${viewExtras}
),
ticket_of as (
  select o.i, o.id, false as created from open_tickets o
  union all
  select co.i, n.id, true from new_tickets n join contact_of co on co.id = n.contact_id
),
-- The messages in arrival order, so that their ids follow it. The unique index (whatsapp_id, wid) is
-- the only one a new row can hit: a message another transaction stored meanwhile.
inserted as (
  insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, media_type, media_path, media_name,
                        from_me, read, ack, quoted_msg_id, participant, raw, created_at, updated_at)
  select $2, tk.id, co.id, x.whatsapp_id, x.wid, x.body, x.media_type, x.media_path, x.media_name,
         x.from_me, x.from_me, case when x.from_me then 1 else 0 end,
         (select q.id from messages q where q.company_id = $2 and q.whatsapp_id = x.whatsapp_id and q.wid = x.quoted_wid limit 1),
         x.participant, x.raw, x.created_at, $3
  from fresh x join contact_of co on co.i = x.i join ticket_of tk on tk.i = x.i
  order by x.i
  on conflict do nothing
  returning *
),
-- updated_at never goes back: $3 was read before this transaction, and a change committed meanwhile (an
-- accept) may carry a later stamp; the lists sort by it and the browser keeps the newer copy.
updated_tickets as (
  update tickets t
  set last_message = x.preview, last_message_at = x.created_at, updated_at = greatest(t.updated_at, $3),
      unread_messages = t.unread_messages + case when x.from_me then 0 else 1 end
  from inserted m join fresh x on x.whatsapp_id = m.whatsapp_id and x.wid = m.wid
  where t.company_id = $2 and t.id = m.ticket_id
  returning t.*, ${viewExtras}
)
select x.i,
       f.i is not null as fresh,
       co.row as contact, co.change,
       coalesce(row_to_json(u), row_to_json(n)) as ticket,
       tk.created,
       row_to_json(m) as message,
       (select json_build_object('id', q.id, 'body', q.body, 'fromMe', q.from_me, 'mediaType', q.media_type) from messages q where q.id = m.quoted_msg_id) as quoted
from input x
left join fresh f on f.i = x.i
left join contact_of co on co.i = x.i
left join ticket_of tk on tk.i = x.i
left join updated_tickets u on u.id = tk.id
left join new_tickets n on n.id = tk.id
left join inserted m on m.whatsapp_id = x.whatsapp_id and m.wid = x.wid
order by x.i`

type ResultRow = {
  i: number
  fresh: boolean
  contact: Record<string, unknown> | null
  change: 'create' | 'update' | null
  ticket: (Record<string, unknown> & { user_name: string | null; queue: TicketViewExtras['queue']; whatsapp_name: string | null; tags: TicketViewExtras['tags'] }) | null
  created: boolean | null
  message: Record<string, unknown> | null
  quoted: MessageView['quotedMsg']
}

/** The statement's input: one JSON array, built as text (the raw message is spliced in as the JSON it already is). */
function batchInput(items: readonly BatchItem[]): string {
  const parts = items.map((item, i) => {
    const { record, media } = item
    const fields = {
      i,
      whatsapp_id: item.whatsappId,
      number: record.number,
      name: record.senderName?.toWellFormed(),
      lid: record.isGroup ? undefined : record.lid,
      is_group: record.isGroup,
      wid: record.wid,
      body: record.body.toWellFormed(),
      media_type: record.mediaType,
      media_path: media?.path,
      media_name: media?.name.toWellFormed(),
      from_me: record.fromMe,
      quoted_wid: record.quotedId,
      participant: record.participant,
      created_at: record.timestamp.toISOString(),
      preview: lastMessagePreview({ body: record.body, mediaName: media?.name }).toWellFormed(),
    }
    const json = JSON.stringify(fields)
    const raw = storableRawJson(record.raw)
    return raw === undefined ? json : `${json.slice(0, -1)},"raw":${raw}}`
  })
  return `[${parts.join(',')}]`
}

// The statement with its three parameters cast where they appear (an INSERT ... SELECT gives an
// untyped parameter no type of its own). Exported for the test of its plan (inbound-batch-plan.test.ts).
const parameterTypes: Record<string, string> = { '1': 'json', '2': 'integer', '3': 'timestamptz' }
export const statementText = batchStatement.replace(/\$([123])/g, (parameter, number: string) => `${parameter}::${parameterTypes[number]}`)
async function runBatchStatement(tx: Transaction, input: { companyId: number; items: readonly BatchItem[]; now: Date }): Promise<ResultRow[]> {
  // Straight to the driver, prepared (planned once per connection), and nothing is built per batch
  // but the JSON.
  return executePreparedText<ResultRow>(tx, statementText, [batchInput(input.items), input.companyId, input.now.toISOString()])
}

/**
 * Stores the batch; per item, in the batch's order, what storeInbound returns (undefined: that
 * WhatsApp id was stored already). Throws StoredAlready or ConcurrentInsert when the caller must redo
 * it (without some, or as it is), TicketClosedMeanwhile when a message must be stored alone.
 */
export async function storeInboundBatch(
  db: Database,
  input: { companyId: number; items: readonly BatchItem[]; now: Date; onStored?: OnStored },
): Promise<(StoredInbound | undefined)[]> {
  const { companyId, items } = input
  return db.transaction(async (tx) => {
    const rows = await runBatchStatement(tx, input)
    const storedAlready = new Set<string>()
    let raced = false
    for (const row of rows) {
      if (!row.fresh || row.message) continue
      // Fresh but not inserted: stored by another transaction meanwhile, or its contact or ticket was.
      if (!row.contact || row.created === null) raced = true
      else if (row.change || row.created) storedAlready.add(messageKey(items[row.i]!))
    }
    if (storedAlready.size > 0) throw new StoredAlready(storedAlready)
    if (raced) throw new ConcurrentInsert()
    const results = new Array<StoredInbound | undefined>(items.length)
    for (const row of rows) {
      if (!row.message) continue
      if (!row.ticket) throw new Error(`the ticket of message ${String(row.message.id)} of company ${companyId} vanished while storing it`)
      const { user_name: userName, queue, whatsapp_name: whatsappName, tags, ...ticketJson } = row.ticket
      const ticket = ticketOf(ticketJson)
      // A ticket closed since the statement's snapshot: rolled back, and the writer stores each message alone (inbound-store.ts redoes that one).
      if (ticket.status === 'closed') throw new TicketClosedMeanwhile()
      const contact = contactOf(row.contact!)
      const ticketView = ticketViewOf(ticket, { userName, queue, whatsappName, tags: tags ?? [] }, contact)
      results[row.i] = {
        contact,
        contactChange: (row.change ?? undefined) as ContactChange,
        ticket,
        ticketCreated: row.created === true,
        message: messageOf(row.message),
        ticketView,
        quoted: row.quoted ?? null,
      }
    }
    if (input.onStored) for (const stored of results) if (stored) await input.onStored(tx, stored)
    return results
  })
}
