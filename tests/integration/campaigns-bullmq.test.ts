// The campaign jobs on BullMQ (REDIS_URL): the path production runs when scaled out. Two job queues on
// one Redis stand for two instances; both register the campaign jobs, both hear the start and enqueue
// a dispatch, and their workers compete for it. The pacing's longer pause ends a dispatch run, which
// comes back as a delayed BullMQ job. Every contact gets exactly one send, and the campaign finishes.
// A campaign waiting for its window leaves one wake-up in the queue however many runs found it closed.
// Skipped without REDIS_URL (the in-process path is what campaigns.test.ts and the e2e test run).
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { campaigns, campaignShipping, contactListItems, contactLists, whatsapps } from '../../db/schema/index.ts'
import { campaignDispatchJob, startCampaigns } from '../../jobs/campaigns.ts'
import { createJobQueue } from '../../jobs/queue.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'

const redisUrl = process.env.REDIS_URL

describe.skipIf(!redisUrl)('campaign jobs on BullMQ', () => {
  test('two workers, one campaign: dispatched through BullMQ (delayed runs included), every contact exactly one send; a long wait leaves one wake-up', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'zapdesk-campaigns-bullmq-')), 'outbox.jsonl')
    const context = await createTestContext({ config: { whatsappSimulator: true, simulatorOutboxFile: journal } })
    context.simulator.configure({ qrDelayMs: 5, connectDelayMs: 5, ackDelayMs: 10 })
    const registry = context.app.decorator.connections
    const queues = [createJobQueue(context.deps.config, context.deps.logger), createJobQueue(context.deps.config, context.deps.logger)]
    expect(queues.map((queue) => queue.kind)).toEqual(['bullmq', 'bullmq'])
    // maxSleepMs 0: every pause ends the run, and the run comes back as a delayed job.
    const stops = await Promise.all(queues.map((queue) => startCampaigns(context.deps, registry, queue, { sweepEveryMs: 60_000, leaseMs: 5_000, maxSleepMs: 0 })))
    try {
      const tenant = await makeTenant(context)
      const api = tenant.asAdmin.api
      const whatsappId = (await api.whatsapp.post({ name: 'Campanhas', provider: 'simulator' })).data!.id
      await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
      // No wait between messages but a 1 s pause after every 5: three delayed jobs on the way.
      const pacing = { messageInterval: 0, longerIntervalAfter: 5, greaterInterval: 1, jitterPercent: 0, sendWindow: { enabled: false, start: '08:00', end: '20:00', weekdays: [1] }, dailyCap: 0, warmupStart: 0 }
      expect((await api['campaign-settings'].post({ settings: pacing })).status).toBe(200)
      const companyId = tenant.company.id
      const [list] = await context.db.insert(contactLists).values({ companyId, name: 'BullMQ' }).returning()
      const numbers = Array.from({ length: 20 }, (_, index) => `55119${String(70_000_000 + index)}`)
      await context.db.insert(contactListItems).values(numbers.map((number, index) => ({ companyId, contactListId: list!.id, name: `Cliente ${index}`, number })))
      const campaignId = (await api.campaigns.post({ name: 'Fila', message1: 'Oi {{firstName}}', contactListId: list!.id, whatsappId })).data!.id

      const started = Date.now()
      expect((await api.campaigns({ id: campaignId }).start.post()).data).toMatchObject({ status: 'EM_ANDAMENTO' })
      await waitFor(async () => (await api.campaigns({ id: campaignId }).get()).data?.status === 'FINALIZADA', 30_000)
      // The three 1 s pauses were kept (each a delayed job), so it took at least 3 s.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000)

      const calls = readFileSync(journal, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { whatsappId: number; to: string; duplicate?: true })
        .filter((line) => line.whatsappId === whatsappId)
      for (const number of numbers) expect(calls.filter((line) => line.to === number)).toHaveLength(1)
      expect(calls.filter((line) => line.duplicate)).toEqual([])
      const rows = await context.db.select().from(campaignShipping).where(eq(campaignShipping.campaignId, campaignId))
      expect(rows).toHaveLength(20)
      expect(rows.every((row) => row.status === 'SENT' && row.attempts === 1)).toBe(true)

      // A campaign whose window is closed waits for the opening: runs that find it so (the sweep's,
      // every 15 s in production) leave one wake-up in the queue, not one each.
      // Open only on the day after tomorrow (company time): the opening is more than a day away.
      const today = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(new Intl.DateTimeFormat('en-US', { timeZone: tenant.company.timezone, weekday: 'short' }).format(new Date()))
      const closed = { ...pacing, sendWindow: { enabled: true, start: '08:00', end: '20:00', weekdays: [(today + 2) % 7] } }
      expect((await api['campaign-settings'].post({ settings: closed })).status).toBe(200)
      const waitingId = (await api.campaigns.post({ name: 'Noite', message1: 'Oi', contactListId: list!.id, whatsappId })).data!.id
      await context.db.update(campaigns).set({ status: 'EM_ANDAMENTO' }).where(eq(campaigns.id, waitingId))
      const dispatch = campaignDispatchJob(context.deps, registry, queues[0]!, { leaseMs: 5_000 })
      const redis = context.deps.redis!
      const key = (name: string) => `${context.deps.config.redisPrefix}bull:jobs:${name}`
      const wakeUps = async () => (await redis.zrange(key('delayed'), '0', '-1')).filter((id) => !id.startsWith('repeat:'))
      // One run after the other, as sweeps come (concurrent ones would find the lease taken and add nothing).
      for (let run = 0; run < 3; run++) {
        const completed = await redis.zcard(key('completed'))
        await queues[0]!.enqueue(dispatch, { companyId, campaignId: waitingId })
        await waitFor(async () => (await redis.zcard(key('completed'))) > completed && (await redis.llen(key('wait'))) === 0 && (await redis.llen(key('active'))) === 0)
      }
      expect(await wakeUps()).toEqual([expect.stringMatching(new RegExp(`^campaign-${companyId}-${waitingId}-at-\\d+$`))])
    } finally {
      for (const stop of stops) stop()
      await Promise.all(queues.map((queue) => queue.close()))
      await registry.close()
    }
  }, 60_000)
})
