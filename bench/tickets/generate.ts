// The benchmark's data, written by PostgreSQL itself (INSERT ... SELECT generate_series): companies
// with their plan, users, queues, connections and tags; one big company with `tickets` tickets and
// `messages` messages, and small companies around it. Secondary indexes are dropped during the load
// and rebuilt after it from their own definitions (faster than maintaining them row by row); foreign
// keys are not checked during the load (session_replication_role = replica) and the references are
// verified once at the end instead.
import type postgres from 'postgres'
import type { TicketsBenchOptions } from './options.ts'
import { firstNames, lastNames, messageWords, queueNames, tagNames } from './vocabulary.ts'

export const BIG_AGENTS = 30
const SMALL_AGENTS = 2
const BIG_CONNECTIONS = 3
const SMALL_TAGS = 3
const SMALL_QUEUES = 2
const SMALL_MESSAGES_PER_TICKET = 5
const loadedTables = ['contacts', 'tickets', 'ticket_tags', 'messages']

export type GeneratedWorld = {
  bigCompanyId: number
  adminId: number
  /** An agent in two queues with allTicket enabled. */
  agentId: number
  queueIds: number[]
  tagIds: number[]
}

/** A random message body: 3 to 12 words drawn Zipf-like from the vocabulary, sometimes an order number. `$1` is the vocabulary. */
const bodyOf = (seed: string) => `(
  select string_agg(($1::text[])[floor(exp(random() * ln(array_length($1::text[], 1) + 1)))::int], ' ')
  from generate_series(1, 3 + (${seed}) % 10)
) || case when random() < 0.15 then ' pedido ' || (10000 + floor(random() * 90000))::int else '' end`

export async function findWorld(sql: postgres.Sql): Promise<GeneratedWorld> {
  const [company] = await sql<{ id: number }[]>`select id from companies where name = 'Bench company 1'`
  if (!company) throw new Error('the database holds no benchmark data')
  const users = await sql<{ id: number; profile: string }[]>`select id, profile from users where company_id = ${company.id} order by id limit 2`
  const queues = await sql<{ id: number }[]>`select id from queues where company_id = ${company.id} order by order_queue`
  const tags = await sql<{ id: number }[]>`select id from tags where company_id = ${company.id} order by id`
  return { bigCompanyId: company.id, adminId: users[0]!.id, agentId: users[1]!.id, queueIds: queues.map((row) => row.id), tagIds: tags.map((row) => row.id) }
}

/** Tickets and messages of the big company, to tell whether a kept database has the size asked for. */
export async function worldSize(sql: postgres.Sql): Promise<{ companies: number; tickets: number; messages: number } | undefined> {
  const [company] = await sql<{ id: number }[]>`select id from companies where name = 'Bench company 1'`
  if (!company) return undefined
  const [row] = await sql<{ companies: number; tickets: number; messages: number }[]>`
    select (select count(*)::int from companies) as companies,
           (select count(*)::int from tickets where company_id = ${company.id}) as tickets,
           (select count(*)::int from messages where company_id = ${company.id}) as messages`
  return row
}

export async function generateWorld(client: postgres.Sql, options: TicketsBenchOptions, say: (line: string) => void): Promise<GeneratedWorld> {
  const sql = await client.reserve()
  // Integers written into the statement: postgres.js sends a parameter as text, which generate_series and arithmetic refuse.
  const int = (value: number) => sql.unsafe(String(Math.trunc(value)))
  const step = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now()
    await work()
    say(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  try {
    await sql`set session_replication_role = replica`
    await sql`set maintenance_work_mem = '512MB'`
    await sql`set synchronous_commit = off`
    const indexes = await sql<{ name: string; definition: string }[]>`
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      where i.indrelid = any(${loadedTables}::regclass[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`
    for (const index of indexes) await sql.unsafe(`drop index ${index.name}`)

    const T = options.tickets
    const M = options.messages
    const C = Math.ceil(T * 0.6)
    await step('companies, users, queues, connections, tags', async () => {
      const [plan] = await sql<{ id: number }[]>`insert into plans (name, users, connections, queues, value) values ('Bench plan', 100, 10, 20, 99) returning id`
      await sql`
        insert into companies (name, email, plan_id, due_date)
        select 'Bench company ' || n, 'company' || n || '@bench.example', ${int(plan!.id)}, current_date + 30
        from generate_series(1, ${int(options.companies)}) as n`
      const [big] = await sql<{ id: number }[]>`select id from companies where name = 'Bench company 1'`
      const bigId = big!.id
      await sql`
        insert into users (company_id, name, email, password_hash, profile, all_ticket)
        select c.id,
               case when u = 0 then 'Admin ' || c.id else (${firstNames}::text[])[1 + u % ${int(firstNames.length)}] || ' ' || (${lastNames}::text[])[1 + (u * 7) % ${int(lastNames.length)}] end,
               'user' || u || '@company' || c.id || '.bench.example', 'not a password hash',
               case when u = 0 then 'admin' else 'user' end,
               case when u % 2 = 1 then 'enabled' else 'desabled' end
        from companies c cross join lateral generate_series(0, case when c.id = ${int(bigId)} then ${int(BIG_AGENTS)} else ${int(SMALL_AGENTS)} end) as u
        order by c.id, u`
      await sql`
        insert into queues (company_id, name, color, order_queue)
        select c.id, (${queueNames}::text[])[q], '#' || lpad(to_hex(q * 1900000), 6, '0'), q
        from companies c cross join lateral generate_series(1, case when c.id = ${int(bigId)} then ${int(queueNames.length)} else ${int(SMALL_QUEUES)} end) as q`
      // The admin is in every queue; agent k (k = 1, 2, ...) in queues k and k + 1 (mod the count).
      await sql`
        insert into user_queues (user_id, queue_id, company_id)
        select u.id, q.id, u.company_id
        from (select id, company_id, profile, row_number() over (partition by company_id order by id) - 1 as k from users) as u
        join queues q on q.company_id = u.company_id
        where u.profile = 'admin'
           or q.order_queue in (1 + (u.k - 1) % (select count(*) from queues x where x.company_id = u.company_id),
                                1 + u.k % (select count(*) from queues x where x.company_id = u.company_id))`
      await sql`
        insert into whatsapps (company_id, name, status, is_default, token)
        select c.id, 'Conexão ' || w, 'CONNECTED', w = 1, md5('bench-' || c.id || '-' || w)
        from companies c cross join lateral generate_series(1, case when c.id = ${int(bigId)} then ${int(BIG_CONNECTIONS)} else 1 end) as w`
      await sql`
        insert into tags (company_id, name, color, kanban)
        select c.id, (${tagNames}::text[])[g], '#' || lpad(to_hex(g * 800000), 6, '0'), case when g <= 4 then 1 else 0 end
        from companies c cross join lateral generate_series(1, case when c.id = ${int(bigId)} then ${int(tagNames.length)} else ${int(SMALL_TAGS)} end) as g`
    })
    const world = await findWorld(sql)
    const bigId = world.bigCompanyId

    await step(`contacts (${C.toLocaleString('en-US')} of the big company, ${options.smallTickets} of each other one)`, () =>
      sql`
        insert into contacts (company_id, name, number)
        select c.id,
               (${firstNames}::text[])[1 + floor(random() * ${int(firstNames.length)})::int] || ' ' || (${lastNames}::text[])[1 + floor(random() * ${int(lastNames.length)})::int],
               '55' || (11 + n % 89) || '9' || lpad(((n::bigint * 7919) % 100000000)::text, 8, '0')
        from companies c cross join lateral generate_series(1, case when c.id = ${int(bigId)} then ${int(C)} else ${int(options.smallTickets)} end) as n
        order by c.id, n`,
    )

    // Ranked lookups of the big company's rows, so that nothing assumes ids are contiguous.
    await sql`create temp table bench_contacts as select row_number() over (order by id) as k, id from contacts where company_id = ${int(bigId)}`
    await sql`create temp table bench_agents as select row_number() over (order by id) - 1 as k, id from users where company_id = ${int(bigId)}`
    await sql`create temp table bench_queues as select order_queue as k, id from queues where company_id = ${int(bigId)}`
    await sql`create temp table bench_connections as select row_number() over (order by id) as k, id from whatsapps where company_id = ${int(bigId)}`
    for (const table of ['bench_contacts', 'bench_agents', 'bench_queues', 'bench_connections']) await sql.unsafe(`analyze ${table}`)

    // Ticket n is the n-th most recently updated. The newest 10% are open (45%), pending (25%) or
    // closed; a few older ones are forgotten pending ones; the rest is closed, over a year. Ticket n's
    // contact is contact (n - 1) mod C + 1: the non-closed tickets all have different contacts (the
    // one-open-ticket-per-contact rule), closed ones repeat contacts (history).
    await step(`tickets of the big company (${T.toLocaleString('en-US')})`, () =>
      sql`
        insert into tickets (company_id, status, contact_id, whatsapp_id, user_id, queue_id, last_message, last_message_at,
                             unread_messages, created_at, updated_at)
        select ${int(bigId)}, s.status, contact.id, connection.id,
               case when s.status = 'pending' then null else agent.id end,
               queue.id, (${messageWords}::text[])[1 + floor(random() * 60)::int] || ' ' || (${messageWords}::text[])[1 + floor(random() * 200)::int],
               s.updated_at, case when s.status = 'closed' then 0 else floor(random() * 6)::int end,
               s.updated_at - random() * interval '3 days', s.updated_at
        from (
          select n, r.status,
                 case when (r.status = 'pending' and r.r3 < 0.3) or (r.status = 'closed' and r.r3 < 0.05) then null
                      else 1 + floor(${int(queueNames.length)} * power(r.r4, 1.5))::int end as queue_k,
                 1 + floor(r.r2 * ${int(BIG_CONNECTIONS)})::int as connection_k,
                 floor(r.r5 * 4)::int as agent_slot,
                 now() - (n - 1) * (interval '365 days' / ${int(T)}) - random() * interval '30 minutes' as updated_at
          from generate_series(1, ${int(T)}) as n
          cross join lateral (
            select case when n <= ${int(T)} * 0.1 then (case when r1 < 0.45 then 'open' when r1 < 0.7 then 'pending' else 'closed' end)
                        when n <= ${int(T)} * 0.6 and r1 < 0.01 then 'pending' else 'closed' end as status,
                   r2, r3, r4, r5
            from (select random() + n * 0 as r1, random() + n * 0 as r2, random() + n * 0 as r3, random() + n * 0 as r4, random() + n * 0 as r5) as draws
          ) as r
        ) as s
        join bench_contacts contact on contact.k = (s.n - 1) % ${int(C)} + 1
        join bench_connections connection on connection.k = s.connection_k
        left join bench_queues queue on queue.k = s.queue_k
        -- An agent of the ticket's queue q: agents q, q + Q, q + 2Q, ... serve it (Q queues); any agent without a queue.
        join bench_agents agent on agent.k = case
          when s.queue_k is null then 1 + (s.n % ${int(BIG_AGENTS)})
          else s.queue_k + ${int(queueNames.length)} * (s.agent_slot % ((${int(BIG_AGENTS)} - s.queue_k) / ${int(queueNames.length)} + 1))
          end
        order by s.n desc`,
    )

    await step(`tickets of the ${options.companies - 1} small companies (${options.smallTickets} each, one per contact)`, () =>
      sql`
        insert into tickets (company_id, status, contact_id, whatsapp_id, user_id, queue_id, last_message, last_message_at, unread_messages, created_at, updated_at)
        select c.company_id, s.status, c.id, w.id,
               case when s.status = 'pending' then null else (select u.id from users u where u.company_id = c.company_id and u.profile = 'user' order by u.id limit 1) end,
               (select q.id from queues q where q.company_id = c.company_id order by q.id limit 1 offset (c.id % ${int(SMALL_QUEUES)})),
               'obrigado', s.updated_at, 0, s.updated_at - interval '1 hour', s.updated_at
        from contacts c
        join whatsapps w on w.company_id = c.company_id
        cross join lateral (
          select case when r < 0.2 then 'open' when r < 0.3 then 'pending' else 'closed' end as status,
                 now() - random() * interval '365 days' as updated_at
          from (select random() + c.id * 0 as r) as draw
        ) as s
        where c.company_id <> ${int(bigId)}`,
    )

    await sql`create temp table bench_tickets as select row_number() over (order by id) as k, id, contact_id, whatsapp_id, user_id, updated_at from tickets where company_id = ${int(bigId)}`
    await sql`analyze bench_tickets`

    // 30% of the tickets carry a tag (a Zipf-like pick: the first tags are the common ones), 10% a second one.
    await step('ticket tags', async () => {
      await sql`create temp table bench_tags as select row_number() over (order by id) as k, id from tags where company_id = ${int(bigId)}`
      await sql`
        insert into ticket_tags (ticket_id, tag_id, company_id)
        select t.id, g.id, ${int(bigId)}
        from (select id, random() as r, random() as pick, random() as second from bench_tickets) as t
        cross join lateral (select 1 + floor(${int(tagNames.length)} * power(t.pick, 2))::int as first) as f
        join bench_tags g on g.k = f.first or (t.second < 0.33 and g.k = 1 + (f.first + 1 + floor(t.second * 30)::int) % ${int(tagNames.length)})
        where t.r < 0.3`
      await sql`
        insert into ticket_tags (ticket_id, tag_id, company_id)
        select t.id, (select g.id from tags g where g.company_id = t.company_id order by g.id limit 1), t.company_id
        from tickets t where t.company_id <> ${int(bigId)} and t.id % 4 = 0`
      // The copies of the ticket's columns that the list reads: the trigger writes them, but triggers
      // are off during the load (session_replication_role = replica).
      await sql`
        update ticket_tags x set ticket_status = t.status, ticket_queue_id = t.queue_id, ticket_user_id = t.user_id, ticket_updated_at = t.updated_at
        from tickets t where t.id = x.ticket_id`
    })

    // Messages of the big company: each on a random ticket, within two days before its last update,
    // half from the customer and half from the agent. Written in chunks to show progress.
    const chunk = 250_000
    for (let first = 1; first <= M; first += chunk) {
      const last = Math.min(M, first + chunk - 1)
      await step(`messages of the big company ${first.toLocaleString('en-US')}-${last.toLocaleString('en-US')} of ${M.toLocaleString('en-US')}`, () =>
        sql.unsafe(
          `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, user_id, body, from_me, read, ack, created_at, updated_at)
           select $2::int, t.id, t.contact_id, t.whatsapp_id, case when s.from_me then t.user_id end, s.body, s.from_me, true,
                  case when s.from_me then 3 else 0 end, t.updated_at - s.back, t.updated_at - s.back
           from (
             select m, 1 + floor(random() * $3::int)::int as ticket_k, random() < 0.5 as from_me, random() * interval '2 days' as back, ${bodyOf('m')} as body
             from generate_series($4::int, $5::int) as m
           ) as s
           join bench_tickets t on t.k = s.ticket_k`,
          [messageWords, bigId, T, first, last],
        ),
      )
    }
    await step(`messages of the small companies (${SMALL_MESSAGES_PER_TICKET} per ticket)`, () =>
      sql.unsafe(
        `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, read, ack, created_at, updated_at)
         select t.company_id, t.id, t.contact_id, t.whatsapp_id, ${bodyOf('m + t.id')}, m % 2 = 0, true, 0,
                t.updated_at - m * interval '5 minutes', t.updated_at - m * interval '5 minutes'
         from tickets t cross join generate_series(1, ${SMALL_MESSAGES_PER_TICKET}) as m
         where t.company_id <> $2::int`,
        [messageWords, bigId],
      ),
    )
    // The search's words (ticket_words): its triggers on messages do not fire during the load (replica
    // role), so they are written here as the migration writes them for the messages already stored.
    await step('search words of the messages (ticket_words)', () =>
      sql`
        insert into ticket_words (company_id, word, ticket_id)
        select distinct m.company_id, w.word, m.ticket_id
        from messages m cross join lateral unnest(search_words(m.body)) as w(word)
        where not m.is_deleted and m.body <> ''`,
    )

    await step(`indexes rebuilt (${indexes.length})`, async () => {
      for (const index of indexes) await sql.unsafe(index.definition)
    })
    await step('references checked', async () => {
      const [broken] = await sql<{ count: number }[]>`
        select (select count(*) from tickets t left join contacts c on c.id = t.contact_id and c.company_id = t.company_id where c.id is null)
             + (select count(*) from tickets t left join whatsapps w on w.id = t.whatsapp_id and w.company_id = t.company_id where w.id is null)
             + (select count(*) from tickets t left join queues q on q.id = t.queue_id and q.company_id = t.company_id where t.queue_id is not null and q.id is null)
             + (select count(*) from tickets t left join users u on u.id = t.user_id and u.company_id = t.company_id where t.user_id is not null and u.id is null)
             + (select count(*) from messages m left join tickets t on t.id = m.ticket_id and t.company_id = m.company_id where t.id is null)
             + (select count(*) from ticket_tags x left join tickets t on t.id = x.ticket_id and t.company_id = x.company_id where t.id is null)
             + (select count(*) from ticket_tags x join tickets t on t.id = x.ticket_id
                where (x.ticket_status, x.ticket_queue_id, x.ticket_user_id, x.ticket_updated_at) is distinct from (t.status, t.queue_id, t.user_id, t.updated_at)) as count`
      if (Number(broken!.count) !== 0) throw new Error(`the generated data has ${broken!.count} broken references`)
    })
    await sql`set session_replication_role = origin`
    // As autovacuum leaves a table that has settled: statistics, and the visibility map for index-only scans.
    await step('vacuum analyze', () => sql`vacuum analyze`)
    return world
  } finally {
    sql.release()
  }
}
