// What happens to a campaign message after it left: WhatsApp's receipts (delivered, read), the
// contact's reply, an opt-out (a reply that is a stop word), and a connection WhatsApp restricted.
import { and, eq, lt, sql } from 'drizzle-orm'
import { executePrepared } from '../../../db/prepared.ts'
import { campaignConnectionPauses, campaignOptOuts, campaignShipping } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { isStopWord, loadCampaignSettings } from './settings.ts'

/** Receipts come two per send: the report hears of them at most this often per campaign. */
const PROGRESS_EVERY_MS = 300
const lastProgress = new Map<number, number>()

const trailing = new Set<number>()

async function progressed(deps: Pick<Deps, 'bus'>, companyId: number, campaignId: number): Promise<void> {
  const now = Date.now()
  const since = now - (lastProgress.get(campaignId) ?? 0)
  if (since < PROGRESS_EVERY_MS) {
    // One trailing tick, so that the last receipts of a burst reach the report too.
    if (!trailing.has(campaignId)) {
      trailing.add(campaignId)
      setTimeout(() => {
        trailing.delete(campaignId)
        lastProgress.set(campaignId, Date.now())
        void deps.bus.emit('campaign.progressed', { companyId, campaignId })
      }, PROGRESS_EVERY_MS - since)
    }
    return
  }
  lastProgress.set(campaignId, now)
  if (lastProgress.size > 10_000) lastProgress.clear()
  await deps.bus.emit('campaign.progressed', { companyId, campaignId })
}

/** A reply counts for the campaign message sent to the number within this long before it. */
export const REPLY_WINDOW_MS = 7 * 86_400_000

/**
 * Records a receipt for a campaign message (by connection and WhatsApp id); true when it was one.
 * The row has its id from the claim on, so a receipt that overtakes the confirmation still lands.
 */
export async function recordCampaignAck(deps: Deps, connection: { companyId: number; whatsappId: number }, update: { id: string; ack: number }): Promise<boolean> {
  const now = deps.now()
  const rows = await deps.db
    .update(campaignShipping)
    .set({
      ack: update.ack,
      deliveredAt: update.ack >= 3 ? sql`coalesce(${campaignShipping.deliveredAt}, ${now.toISOString()}::timestamptz)` : campaignShipping.deliveredAt,
      readAt: update.ack >= 4 ? sql`coalesce(${campaignShipping.readAt}, ${now.toISOString()}::timestamptz)` : campaignShipping.readAt,
    })
    .where(and(eq(campaignShipping.companyId, connection.companyId), eq(campaignShipping.whatsappId, connection.whatsappId), eq(campaignShipping.wid, update.id), lt(campaignShipping.ack, update.ack)))
    .returning({ campaignId: campaignShipping.campaignId })
  for (const row of rows) await progressed(deps, connection.companyId, row.campaignId)
  if (rows.length > 0) return true
  // Already at that ack or higher: still a campaign message.
  const [known] = await deps.db
    .select({ id: campaignShipping.id })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, connection.companyId), eq(campaignShipping.whatsappId, connection.whatsappId), eq(campaignShipping.wid, update.id)))
    .limit(1)
  return Boolean(known)
}

/**
 * Contacts of a company wrote in (in the order given): per number, the latest campaign message sent to
 * it (within REPLY_WINDOW_MS) gets the first reply; a stop word opts the number out of every later
 * campaign of the company, and its rows still pending in running campaigns are dropped. One statement
 * for the replies of all the numbers, one for the settings, whatever their count.
 */
export async function recordContactReplies(deps: Deps, companyId: number, replies: readonly { number: string; body: string }[]): Promise<void> {
  if (replies.length === 0) return
  const now = deps.now()
  const first = new Map<string, string>()
  for (const reply of replies) if (!first.has(reply.number)) first.set(reply.number, reply.body)
  const input = JSON.stringify([...first].map(([number, body]) => ({ number, reply: body.slice(0, 500) })))
  const since = new Date(now.getTime() - REPLY_WINDOW_MS).toISOString()
  // The latest SENT row per number, and the reply on it unless it has one already.
  // Prepared (db/prepared.ts): it runs once per burst of customer messages, with a constant text.
  const latest = await executePrepared<{ number: string; campaignId: number; replied: boolean }>(deps.db, sql`
    with r as (select * from json_to_recordset(${input}::json) as r(number text, reply text)),
    latest as (
      select distinct on (s.number) s.id, s.campaign_id, s.number
      from r join ${campaignShipping} s on s.company_id = ${companyId} and s.number = r.number and s.status = 'SENT' and s.sent_at > ${since}::timestamptz
      order by s.number, s.sent_at desc
    ),
    replied as (
      update ${campaignShipping} s set replied_at = ${now.toISOString()}::timestamptz, reply = r.reply
      from latest l join r on r.number = l.number
      where s.id = l.id and s.replied_at is null
      returning s.id
    )
    select l.number, l.campaign_id as "campaignId", exists (select 1 from replied x where x.id = l.id) as replied from latest l`)
  const latestOf = new Map(latest.map((row) => [row.number, row]))
  const settings = await loadCampaignSettings(deps.db, companyId)
  const optedOut = new Set<string>()
  for (const { number, body } of replies) {
    if (optedOut.has(number)) continue
    const word = isStopWord(settings, body)
    if (!word) continue
    optedOut.add(number)
    await optOut(deps, { companyId, number, word })
  }
  // After the opt-outs too: the report this tick refreshes shows the replies and the opt-outs together.
  const campaigns = new Set<number>()
  for (const [number, row] of latestOf) if (row.replied || optedOut.has(number)) campaigns.add(row.campaignId)
  for (const campaignId of campaigns) await deps.bus.emit('campaign.progressed', { companyId, campaignId })
}

/** A contact wrote in (see recordContactReplies). */
export async function recordContactReply(deps: Deps, input: { companyId: number; number: string; body: string }): Promise<void> {
  await recordContactReplies(deps, input.companyId, [{ number: input.number, body: input.body }])
}

export async function optOut(deps: Deps, input: { companyId: number; number: string; word: string }): Promise<void> {
  await deps.db
    .insert(campaignOptOuts)
    .values({ companyId: input.companyId, number: input.number, word: input.word, createdAt: deps.now() })
    .onConflictDoNothing()
  const dropped = await deps.db
    .update(campaignShipping)
    .set({ status: 'OPTED_OUT' })
    .where(and(eq(campaignShipping.companyId, input.companyId), eq(campaignShipping.number, input.number), eq(campaignShipping.status, 'PENDING')))
    .returning({ campaignId: campaignShipping.campaignId })
  for (const campaignId of new Set(dropped.map((row) => row.campaignId))) await deps.bus.emit('campaign.progressed', { companyId: input.companyId, campaignId })
  deps.logger.info('a contact opted out of campaigns', { companyId: input.companyId, word: input.word })
}

/** Replies noted at most this long before they are handled. */
const REPLY_FLUSH_MS = 20
/** Replies per statement: a burst larger than this is handled in several. */
const REPLIES_PER_STATEMENT = 500

/**
 * Listens to what contacts write in (message.created from WhatsApp, not ours). On the inbound hot
 * path, where a message costs a few statements in all: the replies of a burst are noted and handled
 * together a moment later (as the schedules' reply listener does), a few statements per company
 * rather than two more per customer message.
 */
export function listenCampaignReplies(deps: Deps): () => void {
  let pending = new Map<number, { number: string; body: string }[]>()
  let timer: ReturnType<typeof setTimeout> | undefined

  const flush = async () => {
    timer = undefined
    const byCompany = pending
    pending = new Map()
    for (const [companyId, replies] of byCompany) {
      for (let start = 0; start < replies.length; start += REPLIES_PER_STATEMENT) {
        try {
          await recordContactReplies(deps, companyId, replies.slice(start, start + REPLIES_PER_STATEMENT))
        } catch (error) {
          deps.logger.error('campaign replies could not be recorded', { companyId, error })
        }
      }
    }
  }

  const stop = deps.bus.on('message.created', (event) => {
    if (event.fromMe || event.source !== 'whatsapp' || !event.contact || event.contact.isGroup) return
    const body = event.message.body
    if (!body) return
    let replies = pending.get(event.companyId)
    if (!replies) pending.set(event.companyId, (replies = []))
    replies.push({ number: event.contact.number, body })
    timer ??= setTimeout(() => void flush(), REPLY_FLUSH_MS)
  })
  return () => {
    stop()
    if (timer) clearTimeout(timer)
  }
}

/**
 * WhatsApp restricted the connection (Baileys' reachoutTimeLock, through the provider port's state):
 * its campaign sends are held until the restriction ends; lifted, the hold goes.
 */
export async function recordConnectionRestriction(deps: Deps, input: { companyId: number; whatsappId: number; active: boolean; reason: string; until: Date | null }): Promise<void> {
  if (!input.active) {
    await deps.db.delete(campaignConnectionPauses).where(and(eq(campaignConnectionPauses.companyId, input.companyId), eq(campaignConnectionPauses.whatsappId, input.whatsappId)))
    return
  }
  await deps.db
    .insert(campaignConnectionPauses)
    .values({ companyId: input.companyId, whatsappId: input.whatsappId, reason: input.reason, until: input.until, createdAt: deps.now() })
    .onConflictDoUpdate({ target: campaignConnectionPauses.whatsappId, set: { reason: input.reason, until: input.until, createdAt: deps.now() } })
  await deps.bus.emit('campaign.connection_paused', { companyId: input.companyId, whatsappId: input.whatsappId, reason: input.reason, until: input.until })
}
