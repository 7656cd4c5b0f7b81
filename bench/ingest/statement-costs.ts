// Profiling aid (--profile): what one statement of the inbound path costs, and what preparing it would
// save. The statements are captured from the real pipeline (a logging Drizzle over the same client),
// then each is replayed sequentially through postgres.js as Drizzle sends it today (unnamed: parsed
// and planned by PostgreSQL on every execution) and as a named prepared statement (parsed and planned
// once per connection). The heaviest read is also timed as the code calls it (Drizzle builds the SQL).
import { drizzle } from 'drizzle-orm/postgres-js'
import type { Database } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import { createInboundPipeline } from '../../src/channels/inbound/pipeline.ts'
import { findTicketView } from '../../src/modules/tickets/view.ts'
import type { CpuMeter } from './cpu.ts'
import type { BenchWorld } from './setup.ts'
import { benchmarkBody } from './socket-probe.ts'
import { contactNumber } from './workload.ts'

type Captured = { query: string; params: unknown[] }

export type StatementCost = {
  statement: string
  /** Per execution: wall, this process's CPU, the PostgreSQL backends' CPU (ms). */
  unnamed: { wallMs: number; bunMs: number; postgresMs: number }
  prepared: { wallMs: number; bunMs: number; postgresMs: number }
}

function label(query: string): string {
  const text = query.replace(/\s+/g, ' ')
  if (text.startsWith('insert into "messages"')) return 'message insert'
  if (text.startsWith('update "tickets"')) return 'ticket update'
  if (text.startsWith('insert')) return `insert ${text.split('"')[1]}`
  if (text.startsWith('update')) return `update ${text.split('"')[1]}`
  if (/from "tickets" inner join "contacts"/.test(text)) return 'ticket view (5-table join)'
  if (/from "ticket_tags"/.test(text)) return 'ticket view tags'
  if (/from "messages" left join "messages" "quoted"/.test(text)) return 'message view (3-table join)'
  if (/select "id" from "messages"/.test(text)) return 'dedupe select'
  if (/from "contacts"/.test(text)) return 'contact select'
  if (/from "tickets"/.test(text)) return 'open ticket select'
  return text.slice(0, 40)
}

async function replay(world: BenchWorld, meter: CpuMeter, statement: Captured, prepare: boolean, repetitions: number, wid: string | undefined) {
  const start = await meter.sample()
  for (let index = 0; index < repetitions; index++) {
    // A repeated insert would only hit the unique index: each one gets a WhatsApp id of its own.
    const params = wid === undefined ? statement.params : statement.params.map((value) => (value === wid ? `${wid}-${prepare ? 'P' : 'U'}${index}` : value))
    await world.client.unsafe(statement.query, params as never[], { prepare })
  }
  const use = await meter.since(start)
  return { wallMs: use.wallMs / repetitions, bunMs: use.ownMs / repetitions, postgresMs: use.postgresMs / repetitions }
}

export async function statementCosts(world: BenchWorld, meter: CpuMeter, repetitions = 400): Promise<{ costs: StatementCost[]; ticketViewAsCalled: { wallMs: number; bunMs: number; postgresMs: number } }> {
  const captured: Captured[] = []
  const logging = drizzle({
    client: world.client,
    schema,
    casing: 'snake_case',
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Database
  const pipeline = createInboundPipeline({ ...world.deps, db: logging })
  const whatsappId = world.whatsappIds[0]!
  const wid = 'ZBSTATEMENTS0'
  await pipeline.message(
    { companyId: world.companyId, whatsappId },
    { id: wid, from: `${contactNumber(0)}@s.whatsapp.net`, fromMe: false, pushName: 'Cliente 0', isGroup: false, timestamp: new Date(), body: benchmarkBody('s', 0), mediaType: 'chat' },
  )
  const costs: StatementCost[] = []
  for (const statement of captured) {
    const isInsert = statement.query.startsWith('insert into "messages"')
    const unnamed = await replay(world, meter, statement, false, repetitions, isInsert ? wid : undefined)
    const prepared = await replay(world, meter, statement, true, repetitions, isInsert ? wid : undefined)
    costs.push({ statement: label(statement.query), unnamed, prepared })
  }
  const ticketId = captured.length > 0 ? await firstTicketId(world) : 0
  const start = await meter.sample()
  for (let index = 0; index < repetitions; index++) await findTicketView(world.deps.db, { companyId: world.companyId, ticketId })
  const use = await meter.since(start)
  return { costs, ticketViewAsCalled: { wallMs: use.wallMs / repetitions, bunMs: use.ownMs / repetitions, postgresMs: use.postgresMs / repetitions } }
}

async function firstTicketId(world: BenchWorld): Promise<number> {
  const [row] = await world.client<{ id: number }[]>`select id from tickets where company_id = ${world.companyId} order by id limit 1`
  return row?.id ?? 0
}
