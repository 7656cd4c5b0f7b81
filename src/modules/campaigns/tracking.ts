// What happens to a campaign message after it left: WhatsApp's receipts (delivered, read), the
// contact's reply, an opt-out (a reply that is a stop word), and a connection WhatsApp restricted.
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
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
 * A contact wrote in: the latest campaign message sent to the number (within REPLY_WINDOW_MS) gets
 * the reply; a stop word opts the number out of every later campaign of the company, and its rows
 * still pending in running campaigns are dropped.
 */
export async function recordContactReply(deps: Deps, input: { companyId: number; number: string; body: string }): Promise<void> {
  const now = deps.now()
  const [latest] = await deps.db
    .select({ id: campaignShipping.id, campaignId: campaignShipping.campaignId })
    .from(campaignShipping)
    .where(
      and(
        eq(campaignShipping.companyId, input.companyId),
        eq(campaignShipping.number, input.number),
        eq(campaignShipping.status, 'SENT'),
        gt(campaignShipping.sentAt, new Date(now.getTime() - REPLY_WINDOW_MS)),
      ),
    )
    .orderBy(desc(campaignShipping.sentAt))
    .limit(1)
  if (latest) {
    const replied = await deps.db
      .update(campaignShipping)
      .set({ repliedAt: now, reply: input.body.slice(0, 500) })
      .where(and(eq(campaignShipping.companyId, input.companyId), eq(campaignShipping.id, latest.id), isNull(campaignShipping.repliedAt)))
      .returning({ id: campaignShipping.id })
    if (replied.length > 0) await deps.bus.emit('campaign.progressed', { companyId: input.companyId, campaignId: latest.campaignId })
  }
  const settings = await loadCampaignSettings(deps.db, input.companyId)
  const word = isStopWord(settings, input.body)
  if (word) await optOut(deps, { companyId: input.companyId, number: input.number, word })
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

/** Listens to what contacts write in (message.created from WhatsApp, not ours). */
export function listenCampaignReplies(deps: Deps): () => void {
  return deps.bus.on('message.created', async (event) => {
    if (event.fromMe || event.source !== 'whatsapp' || !event.contact || event.contact.isGroup) return
    const body = event.message.body
    if (!body) return
    await recordContactReply(deps, { companyId: event.companyId, number: event.contact.number, body })
  })
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
