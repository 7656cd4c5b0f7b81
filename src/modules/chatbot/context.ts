// What the chatbot reads before it answers a customer: the connection, the company's hours, the two
// settings it obeys and the connection's queues. Read fresh for every message (an edit shows on the
// next message, on every instance), but shared: messages of one connection that are answered at the
// same time (a batch of inbound messages is stored together, then each runs the bot) join the read
// already in flight, and the read is one statement instead of five. Nothing is kept afterwards.
import { and, eq, getTableColumns, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { whatsapps, type ScheduleEntry } from '../../../db/schema/index.ts'
import { settingDefinitions } from '../settings/defaults.ts'
import type { ConnectionRow } from '../whatsapp/connection-row.ts'
import type { BotCompany, BotQueue } from './queries.ts'

export type BotContext = {
  connection: ConnectionRow
  company: BotCompany
  /** Setting scheduleType: 'company', 'queue' or off. */
  scheduleType: string
  /** Setting sendGreetingMessageOneQueues. */
  sendGreetingMessageOneQueues: string
  queues: BotQueue[]
}

type Scope = { companyId: number; whatsappId: number }

function fromJson<T>(value: unknown): T {
  // postgres.js hands json over parsed, PGlite as text.
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}

/**
 * The connection with the rest, in one statement (findConnectionRow, findBotCompany, getSetting twice
 * and findConnectionQueues, with the same rules: settings default when unset, queues in menu order).
 * Built once per database with placeholders and prepared: Drizzle took ~115 µs of JavaScript to build
 * it on every call, and PostgreSQL most of 0.7 ms to plan it.
 */
function prepareBotContextRead(db: Executor) {
  // The subqueries name the scope's ids, not the outer columns: unqualified, those would resolve
  // to the subquery's own tables.
  const companyId = sql.placeholder('companyId')
  const whatsappId = sql.placeholder('whatsappId')
  return db
    .select({
      ...getTableColumns(whatsapps),
      company: sql<unknown>`(select json_build_object('timezone', c.timezone, 'schedules', c.schedules) from companies c where c.id = ${companyId})`,
      scheduleType: sql<string | null>`(select s.value from settings s where s.company_id = ${companyId} and s.key = 'scheduleType')`,
      sendGreetingMessageOneQueues: sql<string | null>`(select s.value from settings s where s.company_id = ${companyId} and s.key = 'sendGreetingMessageOneQueues')`,
      queues: sql<unknown>`(
        select coalesce(json_agg(json_build_object('id', q.id, 'name', q.name, 'greetingMessage', q.greeting_message, 'outOfHoursMessage', q.out_of_hours_message, 'schedules', q.schedules, 'promptId', q.prompt_id, 'integrationId', q.integration_id)
          order by q.order_queue asc nulls last, q.name asc, q.id asc), '[]'::json)
        from whatsapp_queues wq join queues q on q.id = wq.queue_id and q.company_id = wq.company_id
        where wq.company_id = ${companyId} and wq.whatsapp_id = ${whatsappId})`,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)))
    .limit(1)
    .prepare('chatbot_context')
}

async function readBotContext(read: ReturnType<typeof prepareBotContextRead>, scope: Scope): Promise<BotContext | undefined> {
  const [row] = await read.execute({ companyId: scope.companyId, whatsappId: scope.whatsappId })
  if (!row) return undefined
  const { company, scheduleType, sendGreetingMessageOneQueues, queues, ...connection } = row
  const found = fromJson<{ timezone: string; schedules: ScheduleEntry[] } | null>(company)
  return {
    connection,
    company: { timezone: found?.timezone ?? 'America/Sao_Paulo', schedules: found?.schedules ?? [] } satisfies BotCompany,
    scheduleType: scheduleType ?? settingDefinitions.scheduleType!.defaultValue,
    sendGreetingMessageOneQueues: sendGreetingMessageOneQueues ?? settingDefinitions.sendGreetingMessageOneQueues!.defaultValue,
    queues: fromJson<BotQueue[]>(queues),
  }
}

export type BotContextReader = (scope: Scope) => Promise<BotContext | undefined>

/** A reader that lets simultaneous callers for one connection share the read in flight. */
export function sharedBotContextReader(db: Executor): BotContextReader {
  const inFlight = new Map<string, Promise<BotContext | undefined>>()
  const prepared = prepareBotContextRead(db)
  return (scope) => {
    const key = `${scope.companyId}:${scope.whatsappId}`
    let read = inFlight.get(key)
    if (!read) {
      read = readBotContext(prepared, scope)
      inFlight.set(key, read)
      const forget = () => {
        if (inFlight.get(key) === read) inFlight.delete(key)
      }
      read.then(forget, forget)
    }
    return read
  }
}
