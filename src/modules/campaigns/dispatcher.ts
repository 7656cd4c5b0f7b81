// The campaign dispatcher: one run sends a campaign's contacts one after the other, paced, until it
// is done, cancelled, or has to wait (window closed, caps reached, a long interval). Everything it
// needs is in the rows, so any instance can pick a campaign up where a dead one left it:
//  - one sender per campaign: a lease on the campaign row (dispatchLeaseUntil), renewed at every step;
//  - each contact claimed before its send and confirmed after (delivery.ts explains the recovery);
//  - the pacing's memory (how many were sent, when the last one left) is read back from the rows.
import { and, asc, count, eq, gt, gte, inArray, isNull, lt, lte, max, or, sql } from 'drizzle-orm'
import { campaignConnectionPauses, campaigns, campaignShipping } from '../../../db/schema/index.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import { AppError } from '../../core/errors.ts'
import { renderTemplate } from '../../core/templates/render.ts'
import { findCompanyTimezone } from '../companies/service.ts'
import type { Deps } from '../deps.ts'
import { campaignDeliverTask, campaignMessageId, type CampaignFile, type CampaignParcel } from './delivery.ts'
import { dailyCapFor, nextWindowOpening, startOfLocalDay, waitBeforeSendMs } from './pacing.ts'
import { campaignConnectionIds, planShipping } from './planning.ts'
import { showFileList } from '../file-lists/service.ts'
import { type CampaignRow } from './queries.ts'
import { findConnectionStates } from '../whatsapp/service.ts'
import { loadCampaign } from './records.ts'
import { loadCampaignSettings, variablesOf, type CampaignSettings } from './settings.ts'
import { toCampaign } from './view.ts'

export type DispatchOptions = {
  /** How long a run holds its campaign unrenewed (a killed run's campaign is free again after it). */
  leaseMs?: number
  /** A wait up to this is slept in the run; a longer one ends the run with retryInMs (the job comes back). */
  maxSleepMs?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  /** Stop after this many sends (tests, benchmarks). */
  maxSends?: number
  /** Aborted when the process stops: the run ends at its next step (or wait) with its lease released. */
  stopping?: AbortSignal
}

export type DispatchResult = {
  /** finished: FINALIZADA now; stopped: not running (cancelled, not due); busy: another run holds it; waiting: come back in retryInMs. */
  outcome: 'finished' | 'stopped' | 'busy' | 'waiting'
  sent: number
  retryInMs?: number
  /**
   * The instant a long wait ends when it is a fixed one (the window's opening, the day's end, the next
   * hour): the same for every run that finds the campaign so, which the job's wake-up id relies on.
   * Counting it again from the clock after the run would move it by the run's last milliseconds.
   */
  retryAt?: Date
}

const DEFAULT_LEASE_MS = 30_000
const PROGRESS_EVERY_MS = 300
/** Pending rows exist but no connection may send: look again in a while. */
const BLOCKED_RETRY_MS = 30_000

type Scope = { companyId: number; campaignId: number }

/** PROGRAMADA whose time came -> EM_ANDAMENTO (a conditional update: one instance wins). */
export async function startIfDue(deps: Deps, scope: Scope): Promise<boolean> {
  const started = await deps.db
    .update(campaigns)
    .set({ status: 'EM_ANDAMENTO', updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId), eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, deps.now())))
    .returning({ id: campaigns.id })
  if (started.length === 0) return false
  await announceCampaign(deps, scope)
  return true
}

export async function announceCampaign(deps: Deps, scope: Scope): Promise<void> {
  const row = await loadCampaign(deps, scope)
  if (row) await deps.bus.emit('campaign.changed', { ...scope, action: 'update', campaign: toCampaign(deps, row) })
}

// A run's lease is the exact expiry it wrote: renewing and releasing require it unchanged, so a run
// whose lease another run took (it lapsed: a database outage kept this one from renewing) learns it
// at its next renewal and stops, instead of both sending. Another run can only write a later expiry.

/** The lease's expiry when this run took it, or null (another run holds it, or the campaign is not running). */
async function takeLease(deps: Deps, scope: Scope, leaseMs: number): Promise<Date | null> {
  const now = deps.now()
  const until = new Date(now.getTime() + leaseMs)
  const taken = await deps.db
    .update(campaigns)
    .set({ dispatchLeaseUntil: until })
    .where(
      and(
        eq(campaigns.companyId, scope.companyId),
        eq(campaigns.id, scope.campaignId),
        eq(campaigns.status, 'EM_ANDAMENTO'),
        or(isNull(campaigns.dispatchLeaseUntil), lt(campaigns.dispatchLeaseUntil, now)),
      ),
    )
    .returning({ id: campaigns.id })
  return taken.length === 1 ? until : null
}

/** Renews this run's lease (held: its expiry as last written); null when the campaign was cancelled or another run took the lease. */
async function renewLease(deps: Deps, scope: Scope, leaseMs: number, held: Date): Promise<Date | null> {
  const until = new Date(Math.max(deps.now().getTime() + leaseMs, held.getTime()))
  const renewed = await deps.db
    .update(campaigns)
    .set({ dispatchLeaseUntil: until })
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId), eq(campaigns.status, 'EM_ANDAMENTO'), eq(campaigns.dispatchLeaseUntil, held)))
    .returning({ id: campaigns.id })
  return renewed.length === 1 ? until : null
}

/** Gives the lease back, unless another run holds it now. */
async function releaseLease(deps: Deps, scope: Scope, held: Date): Promise<void> {
  await deps.db
    .update(campaigns)
    .set({ dispatchLeaseUntil: null })
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId), eq(campaigns.dispatchLeaseUntil, held)))
}

/**
 * Keeps the lease renewed while a send is on its way (a parcel of many files, a slow owner): without
 * it a send longer than the lease let the next sweep start a second run, which reopened this row and
 * sent the rest of the campaign alongside this one. `lost` once a renewal found the lease gone.
 */
function leaseKeeper(deps: Deps, scope: Scope, leaseMs: number, held: Date) {
  let lease = held
  let lost = false
  let beating: Promise<void> = Promise.resolve()
  const timer = setInterval(
    () => {
      beating = beating.then(async () => {
        if (lost) return
        const renewed = await renewLease(deps, scope, leaseMs, lease).catch(() => lease)
        if (renewed) lease = renewed
        else lost = true
      })
    },
    Math.max(100, leaseMs / 3),
  )
  return {
    /** Stops renewing; the lease as last renewed, or null when it was lost. */
    async stop(): Promise<Date | null> {
      clearInterval(timer)
      await beating
      return lost ? null : lease
    },
  }
}

/**
 * Rows CLAIMED when this run took the lease were claimed by a run that is gone (only the lease holder
 * claims): back to PENDING with their attempts counted, so the next claim checks the provider first.
 */
async function reopenOrphanClaims(deps: Deps, scope: Scope): Promise<number> {
  const reopened = await deps.db
    .update(campaignShipping)
    .set({ status: 'PENDING' })
    .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId), eq(campaignShipping.status, 'CLAIMED')))
    .returning({ id: campaignShipping.id })
  if (reopened.length > 0) deps.logger.warn('campaign sends left claimed by a stopped dispatcher are checked again', { ...scope, rows: reopened.length })
  return reopened.length
}

async function finish(deps: Deps, scope: Scope): Promise<boolean> {
  const finished = await deps.db
    .update(campaigns)
    .set({ status: 'FINALIZADA', completedAt: deps.now(), dispatchLeaseUntil: null, updatedAt: deps.now() })
    .where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId), eq(campaigns.status, 'EM_ANDAMENTO')))
    .returning({ id: campaigns.id })
  if (finished.length === 0) return false
  await announceCampaign(deps, scope)
  return true
}

function kindOf(mimetype: string): CampaignFile['kind'] {
  if (mimetype.startsWith('image/')) return 'image'
  if (mimetype.startsWith('audio/')) return 'audio'
  if (mimetype.startsWith('video/')) return 'video'
  return 'document'
}

/** A file list deleted since the campaign named it: the message goes without files. */
function noFileList(error: unknown): { options: [] } {
  if (error instanceof AppError && error.code === 'ERR_NO_FILE_LIST_FOUND') return { options: [] }
  throw error
}

async function fileOf(deps: Deps, path: string, name: string): Promise<CampaignFile> {
  const stored = await deps.storage.read(path)
  const mimetype = stored?.type || 'application/octet-stream'
  return { path, name, mimetype, kind: kindOf(mimetype) }
}

/** The campaign's media and file list, read once per run. */
async function attachmentsOf(deps: Deps, campaign: CampaignRow): Promise<{ media?: CampaignFile; files: CampaignFile[] }> {
  const media = campaign.mediaPath && campaign.mediaName ? await fileOf(deps, campaign.mediaPath, campaign.mediaName) : undefined
  const options = campaign.fileListId ? (await showFileList(deps, { companyId: campaign.companyId, fileListId: campaign.fileListId }).catch(noFileList)).options : []
  const files = await Promise.all(options.map((option) => fileOf(deps, option.path, option.name)))
  return { ...(media ? { media } : {}), files }
}

/** How many a connection sent today (company time zone), across the company's campaigns. */
async function sentTodayBy(deps: Deps, companyId: number, whatsappIds: number[], since: Date): Promise<Map<number, number>> {
  if (whatsappIds.length === 0) return new Map()
  const rows = await deps.db
    .select({ whatsappId: campaignShipping.whatsappId, count: count() })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, companyId), inArray(campaignShipping.whatsappId, whatsappIds), gte(campaignShipping.sentAt, since)))
    .groupBy(campaignShipping.whatsappId)
  return new Map(rows.map((row) => [row.whatsappId!, row.count]))
}

async function pausedConnections(deps: Deps, companyId: number): Promise<Set<number>> {
  const rows = await deps.db
    .select({ whatsappId: campaignConnectionPauses.whatsappId })
    .from(campaignConnectionPauses)
    .where(and(eq(campaignConnectionPauses.companyId, companyId), or(isNull(campaignConnectionPauses.until), gt(campaignConnectionPauses.until, deps.now()))))
  return new Set(rows.map((row) => row.whatsappId))
}

type Ledger = { sent: number; lastSentAt: Date | null }

/** The pacing's memory, from the rows alone. */
async function ledgerOf(deps: Deps, scope: Scope): Promise<Ledger> {
  const [row] = await deps.db
    .select({ sent: count(), lastSentAt: max(campaignShipping.sentAt) })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId), eq(campaignShipping.status, 'SENT')))
  return { sent: row?.sent ?? 0, lastSentAt: row?.lastSentAt ? new Date(row.lastSentAt) : null }
}

type RunState = {
  campaign: CampaignRow
  settings: CampaignSettings
  timezone: string
  connections: { id: number; createdAt: Date; status: string }[]
  attachments: { media?: CampaignFile; files: CampaignFile[] }
}

async function loadRunState(deps: Deps, campaign: CampaignRow): Promise<RunState> {
  const settings = await loadCampaignSettings(deps.db, campaign.companyId)
  const ids = await campaignConnectionIds(deps, campaign)
  const connections = await findConnectionStates(deps.db, { companyId: campaign.companyId, ids })
  return { campaign, settings, timezone: await findCompanyTimezone(deps.db, campaign.companyId), connections, attachments: await attachmentsOf(deps, campaign) }
}

type NextRow = { id: number; number: string; name: string; email: string; variant: number; whatsappId: number | null; attempts: number; ack: number }

/** Pending rows read ahead per statement: each send then costs its claim and its confirmation only. */
const PREFETCH_ROWS = 100

/**
 * The next PENDING rows after `afterId`, in id order. The keyset matters: every send updates its row,
 * leaving dead index entries behind under 'PENDING' until vacuum; scanning from the start each time
 * would wade through all of them (a slowdown that grows with the campaign), starting after the last
 * one does not. Read ahead, a row may have changed since (opted out, claimed by a run that took over):
 * the claim's own condition (still PENDING) is what counts.
 */
async function pendingRows(deps: Deps, scope: Scope, afterId: number): Promise<NextRow[]> {
  return deps.db
    .select({
      id: campaignShipping.id,
      number: campaignShipping.number,
      name: campaignShipping.name,
      email: campaignShipping.email,
      variant: campaignShipping.variant,
      whatsappId: campaignShipping.whatsappId,
      attempts: campaignShipping.attempts,
      ack: campaignShipping.ack,
    })
    .from(campaignShipping)
    .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId), eq(campaignShipping.status, 'PENDING'), gt(campaignShipping.id, afterId)))
    .orderBy(asc(campaignShipping.id))
    .limit(PREFETCH_ROWS)
}

function messageOf(campaign: CampaignRow, variant: number): string {
  const texts = [campaign.message1, campaign.message2, campaign.message3, campaign.message4, campaign.message5]
  return texts[variant - 1]?.trim() ? texts[variant - 1]! : campaign.message1
}

function errorText(error: unknown): string {
  if (error instanceof AppError) return error.code
  return (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'ERR_SENDING_WAPP_MSG'
}

// Scaled out, an owner that died (or does not answer) before its lease ran out fails the call with
// OwnerUnreachableError (channels/sessions/rpc.ts, matched by name: modules reach channels only through
// the port): the connection is down until another instance adopts it, and the row is not the contact's
// fault. Its next claim rechecks whether the message left (a slow owner may have sent it).
const isConnectionDown = (error: unknown) =>
  (error instanceof AppError && error.code === 'ERR_WAPP_NOT_INITIALIZED') || (error instanceof Error && (/not open/.test(error.message) || error.name === 'OwnerUnreachableError'))

/** Runs the campaign's sends until it is done, cancelled, or must wait. Safe to call from anywhere, any number of times. */
export async function dispatchCampaign(deps: Deps, registry: ConnectionRegistry, scope: Scope, options: DispatchOptions = {}): Promise<DispatchResult> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const maxSleepMs = Math.min(options.maxSleepMs ?? 5_000, leaseMs / 2)
  const { stopping } = options
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessStopped(ms, stopping))
  const random = options.random ?? Math.random
  await startIfDue(deps, scope)
  const taken = await takeLease(deps, scope, leaseMs)
  if (!taken) {
    const [row] = await deps.db.select({ status: campaigns.status }).from(campaigns).where(and(eq(campaigns.companyId, scope.companyId), eq(campaigns.id, scope.campaignId))).limit(1)
    return { outcome: row?.status === 'EM_ANDAMENTO' ? 'busy' : 'stopped', sent: 0 }
  }
  let lease: Date = taken
  let sent = 0
  let lastProgress = 0
  const progress = async (force = false) => {
    const now = Date.now()
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return
    lastProgress = now
    await deps.bus.emit('campaign.progressed', scope)
  }
  const wait = async (result: DispatchResult): Promise<DispatchResult> => {
    await releaseLease(deps, scope, lease)
    await progress(true)
    return result
  }
  try {
    const found = await loadCampaign(deps, scope)
    if (!found) return { outcome: 'stopped', sent }
    if (!found.plannedAt) await planShipping(deps, found)
    await reopenOrphanClaims(deps, scope)
    const state = await loadRunState(deps, found)
    const { campaign, settings, timezone } = state
    const extra = variablesOf(settings)
    const ledger = await ledgerOf(deps, scope)
    let plannedWaitMs = waitBeforeSendMs(ledger.sent, settings, random)
    const dayStart = startOfLocalDay(deps.now(), timezone)
    const sentToday = await sentTodayBy(deps, scope.companyId, state.connections.map((connection) => connection.id), dayStart)
    const down = new Set<number>()

    // The lease is renewed a few times per lease period, not per send (a cancel is seen by the claim
    // itself, which requires the campaign EM_ANDAMENTO); the paused connections are read every 2 s.
    let renewedAt = 0
    let cursor = 0
    // The rows read ahead; the first is the next to claim (it leaves the buffer once claimed or lost).
    let ahead: NextRow[] = []
    const peekRow = async () => {
      if (ahead.length === 0) ahead = await pendingRows(deps, scope, cursor)
      return ahead[0]
    }
    let pausesReadAt = 0
    let paused = new Set<number>()
    for (;;) {
      if (options.maxSends !== undefined && sent >= options.maxSends) return await wait({ outcome: 'waiting', sent, retryInMs: 0 })
      if (stopping?.aborted) return await wait({ outcome: 'waiting', sent, retryInMs: 0 })
      if (Date.now() - renewedAt > Math.min(1_000, leaseMs / 3)) {
        const renewed = await renewLease(deps, scope, leaseMs, lease)
        if (!renewed) return { outcome: 'stopped', sent }
        lease = renewed
        renewedAt = Date.now()
      }
      const now = deps.now()
      const opening = nextWindowOpening(now, timezone, settings.sendWindow)
      if (opening.getTime() > now.getTime()) return await wait({ outcome: 'waiting', sent, retryInMs: opening.getTime() - now.getTime(), retryAt: opening })
      if (startOfLocalDay(now, timezone).getTime() !== dayStart.getTime()) return await wait({ outcome: 'waiting', sent, retryInMs: 0 })

      if (Date.now() - pausesReadAt > 2_000) {
        paused = await pausedConnections(deps, scope.companyId)
        pausesReadAt = Date.now()
      }
      const available = state.connections.filter((connection) => {
        if (paused.has(connection.id) || down.has(connection.id)) return false
        const cap = dailyCapFor(connection.createdAt, now, settings)
        return cap === 0 || (sentToday.get(connection.id) ?? 0) < cap
      })
      let row = await peekRow()
      // Rows put back behind the cursor (a connection that was down) are found from the start.
      if (!row && cursor > 0) {
        cursor = 0
        row = await peekRow()
      }
      if (!row) {
        const [open] = await deps.db
          .select({ count: count() })
          .from(campaignShipping)
          .where(and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.campaignId, scope.campaignId), inArray(campaignShipping.status, ['PENDING', 'CLAIMED'])))
        if ((open?.count ?? 0) === 0) {
          await progress(true)
          await finish(deps, scope)
          return { outcome: 'finished', sent }
        }
        return await wait({ outcome: 'waiting', sent, retryInMs: BLOCKED_RETRY_MS })
      }
      // The row's own connection when it may send; with rotation (or none assigned) the least used one that may.
      const own = available.find((connection) => connection.id === row.whatsappId)
      const choice = own ?? (campaign.rotateConnections || row.whatsappId === null ? [...available].sort((a, b) => (sentToday.get(a.id) ?? 0) - (sentToday.get(b.id) ?? 0))[0] : undefined)
      if (!choice) {
        const capped = state.connections.some((connection) => !paused.has(connection.id) && !down.has(connection.id))
        if (!capped) return await wait({ outcome: 'waiting', sent, retryInMs: BLOCKED_RETRY_MS })
        // Capped for today: back at the day's end, or at the next whole hour if that comes first (a
        // raised cap is seen within the hour).
        const retryAt = new Date(Math.max(now.getTime() + 1_000, Math.min(dayStart.getTime() + 86_400_000, Math.ceil((now.getTime() + 1) / 3_600_000) * 3_600_000)))
        return await wait({ outcome: 'waiting', sent, retryInMs: retryAt.getTime() - now.getTime(), retryAt })
      }

      // Pacing: the wait counts from the last send, whoever made it (a restart does not reset the rhythm).
      if (ledger.lastSentAt) {
        const dueAt = ledger.lastSentAt.getTime() + plannedWaitMs
        const waitMs = dueAt - now.getTime()
        if (waitMs > maxSleepMs) return await wait({ outcome: 'waiting', sent, retryInMs: waitMs })
        if (waitMs > 0) {
          await sleep(waitMs)
          renewedAt = 0
          continue
        }
      }

      const wid = campaignMessageId({ ...scope, shippingId: row.id })
      const body = renderTemplate(messageOf(campaign, row.variant), { contact: { name: row.name, email: row.email, number: row.number }, now, timezone, extra })
      const [claimed] = await deps.db
        .update(campaignShipping)
        .set({ status: 'CLAIMED', claimedAt: now, attempts: sql`${campaignShipping.attempts} + 1`, wid, message: body, whatsappId: choice.id })
        .where(
          and(
            eq(campaignShipping.companyId, scope.companyId),
            eq(campaignShipping.id, row.id),
            eq(campaignShipping.status, 'PENDING'),
            // Cancelled since the last lease renewal: nothing more is claimed.
            sql`exists (select 1 from campaigns c where c.id = ${scope.campaignId} and c.company_id = ${scope.companyId} and c.status = 'EM_ANDAMENTO')`,
          ),
        )
        .returning({ attempts: campaignShipping.attempts, ack: campaignShipping.ack })
      cursor = row.id
      ahead.shift()
      if (!claimed) {
        renewedAt = 0
        continue
      }

      const parcel: CampaignParcel = { body, ...(state.attachments.media ? { media: state.attachments.media } : {}), files: state.attachments.files }
      const ids = [wid, ...parcel.files.map((_, index) => campaignMessageId({ ...scope, shippingId: row.id }, index + 1))]
      const connection = { companyId: scope.companyId, whatsappId: choice.id }
      // This run's claim: still CLAIMED with the attempts it counted. A send that outlived the run's
      // lease (an owner that died mid-call keeps the call waiting for its timeout) may find the row
      // reopened, and claimed or sent by the run that took over: then it is that run's row to settle.
      const stillOurs = and(eq(campaignShipping.companyId, scope.companyId), eq(campaignShipping.id, row.id), eq(campaignShipping.status, 'CLAIMED'), eq(campaignShipping.attempts, claimed.attempts))
      const keeper = leaseKeeper(deps, scope, leaseMs, lease)
      try {
        // A receipt already recorded for this id proves it left before a crash: nothing to send.
        if (claimed.ack < 1) {
          const input = { ...connection, number: row.number, ids, parcel, recheck: claimed.attempts > 1 }
          if (registry.runOnOwner) await registry.runOnOwner(connection, campaignDeliverTask, input)
          else await campaignDeliverTask.run(deps, registry.providerFor(connection), input)
        }
      } catch (error) {
        const kept = await keeper.stop()
        if (kept) lease = kept
        else renewedAt = 0
        if (isConnectionDown(error)) {
          // Not this contact's fault: the row waits for the connection (its next claim checks first).
          down.add(choice.id)
          cursor = 0
          ahead = []
          await deps.db.update(campaignShipping).set({ status: 'PENDING' }).where(stillOurs)
          continue
        }
        deps.logger.warn('a campaign send failed', { ...scope, shippingId: row.id, error })
        await deps.db
          .update(campaignShipping)
          .set({ status: 'FAILED', error: errorText(error) })
          .where(stillOurs)
        await progress()
        continue
      }
      const kept = await keeper.stop()
      if (kept) lease = kept
      // Lost while sending: the row is settled below if it is still this run's claim, then the next
      // renewal fails and the run stops (the run that took over carries on).
      else renewedAt = 0
      const sentAt = deps.now()
      await deps.db
        .update(campaignShipping)
        .set({ status: 'SENT', sentAt, ack: sql`greatest(${campaignShipping.ack}, 1)`, error: null })
        .where(stillOurs)
      sent += 1
      ledger.sent += 1
      ledger.lastSentAt = sentAt
      plannedWaitMs = waitBeforeSendMs(ledger.sent, settings, random)
      sentToday.set(choice.id, (sentToday.get(choice.id) ?? 0) + 1)
      await progress()
    }
  } catch (error) {
    // The lease lapses by itself; release it now so that the next run need not wait for it.
    await releaseLease(deps, scope, lease).catch(() => undefined)
    throw error
  }
}

/** A pacing wait that a stop cuts short (the loop then sees the stop and hands the campaign over). */
function sleepUnlessStopped(ms: number, stopping: AbortSignal | undefined): Promise<void> {
  if (!stopping) return Bun.sleep(ms)
  if (stopping.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      stopping.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    stopping.addEventListener('abort', done, { once: true })
  })
}
