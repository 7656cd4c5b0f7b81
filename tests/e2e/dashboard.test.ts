// The dashboard page (/) in the browser (§2, §3, §9): an admin's counters, charts and attendants for
// the default range and for a period, §5's filter toast, a counter and a bar opening the tickets behind
// them, pt/en/es, light and dark, and the screenshots. Seeded attendances have known figures.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { queues, tickets, ticketTracking, userQueues, userRatings } from '../../db/schema/index.ts'
import { addDays, todayIn } from '../../src/modules/dashboard/period.ts'
import { makeContact, makeQueue, makeTenant, makeTicket, makeUser } from '../helpers/factories.ts'
import { alertSlaBreaches } from '../../src/modules/tickets/sla-breaches.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')
const TIME_ZONE = 'America/Sao_Paulo'

/** A time of a day (offset from today) in São Paulo, as an instant. */
function at(daysAgo: number, time: string): Date {
  return new Date(`${addDays(todayIn(TIME_ZONE, new Date()), -daysAgo)}T${time}:00-03:00`)
}

async function seed() {
  const tenant = await makeTenant(harness.context, { company: { timezone: TIME_ZONE } })
  const companyId = tenant.company.id
  const ana = await makeUser(harness.context.db, { companyId, name: 'Ana Agent' })
  const bruno = await makeUser(harness.context.db, { companyId, name: 'Bruno Agent' })
  // A queue with service-level targets: 15 minutes to answer, 60 to resolve.
  const support = await makeQueue(harness.context.db, { companyId, name: 'Suporte' })
  await harness.context.db.update(queues).set({ slaFirstResponseMinutes: 15, slaResolutionMinutes: 60 }).where(eq(queues.id, support.id))
  const attendance = async (name: string, row: { userId?: number; queueId?: number; queued?: [number, string]; started?: [number, string]; finished?: [number, string] }, rate?: number) => {
    const contact = await makeContact(harness.context.db, { companyId, name })
    const ticket = await makeTicket(harness.context.db, { companyId, contactId: contact.id, userId: row.userId ?? null, status: row.finished ? 'closed' : row.started ? 'open' : 'pending' })
    const begun = row.queued ?? row.started!
    await harness.context.db.insert(ticketTracking).values({
      companyId,
      ticketId: ticket.id,
      userId: row.userId ?? null,
      queueId: row.queueId ?? null,
      queuedAt: row.queued ? at(...row.queued) : null,
      startedAt: row.started ? at(...row.started) : null,
      finishedAt: row.finished ? at(...row.finished) : null,
      createdAt: at(...begun),
    })
    if (rate) await harness.context.db.insert(userRatings).values({ companyId, ticketId: ticket.id, userId: row.userId ?? null, rate, createdAt: at(...row.finished!) })
    return ticket
  }
  // Three days ago: two finished by Ana (wait 10 and 30 min, support 50 and 70 min), rated 3 and 2.
  // In the queue Suporte: Carla's met both targets (10 and 60 min), Davi's breached both (30 and 100).
  await attendance('Carla Cliente', { userId: ana.id, queueId: support.id, queued: [3, '09:00'], started: [3, '09:10'], finished: [3, '10:00'] }, 3)
  await attendance('Davi Cliente', { userId: ana.id, queueId: support.id, queued: [3, '11:00'], started: [3, '11:30'], finished: [3, '12:40'] }, 2)
  // Today (00:00-00:05, always in the past): Bruno is on one, one still waits.
  await attendance('Elisa Cliente', { userId: bruno.id, queued: [0, '00:00'], started: [0, '00:02'] })
  const waiting = await attendance('Fábio Cliente', { queued: [0, '00:01'] })
  // Out of every range the test reads.
  await attendance('Gil Antigo', { userId: ana.id, queued: [120, '09:00'], started: [120, '09:10'], finished: [120, '09:20'] })
  // The inbox's service-level timers: the admin works Suporte; Helena has just written (15 minutes to
  // answer), Igor went back to the queue 20 minutes ago (an attendance begun long ago, out of every range).
  await harness.context.db.insert(userQueues).values({ companyId, userId: tenant.admin.id, queueId: support.id })
  const fresh = await makeTicket(harness.context.db, { companyId, contactId: (await makeContact(harness.context.db, { companyId, name: 'Helena Fila' })).id, queueId: support.id })
  const late = await makeTicket(harness.context.db, { companyId, contactId: (await makeContact(harness.context.db, { companyId, name: 'Igor Atrasado' })).id, queueId: support.id })
  await harness.context.db.update(tickets).set({ createdAt: at(120, '08:00') }).where(eq(tickets.id, late.id))
  await harness.context.db.insert(ticketTracking).values({ companyId, ticketId: late.id, queueId: support.id, queuedAt: new Date(Date.now() - 20 * 60_000), createdAt: at(120, '08:00') })
  return { tenant, waiting, fresh, late }
}

async function counter(page: Page, id: string): Promise<string> {
  return (await page.locator(`[data-counter="${id}"] .dashboard-counter-value`).textContent()) ?? ''
}

async function pickLastSevenDays(page: Page, label: string, option: string, filter: string) {
  await page.getByRole('button', { name: label }).click()
  await page.getByRole('option', { name: option }).click()
  await page.getByRole('button', { name: filter, exact: true }).click()
}

describeInBrowser('dashboard page', () => {
  test('counters, charts, attendants and drill-down; pt, en, es; light and dark', async () => {
    const { tenant, waiting, late } = await seed()
    const { page, browserContext, problems } = await openPage(harness, { timezoneId: TIME_ZONE, colorScheme: 'light' })
    await signInTo(page, tenant.admin, '/')
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()

    // §9's period: the last 7 days hold all four attendances of the seed.
    await pickLastSevenDays(page, 'Period', 'Last 7 days', 'Filter')
    await page.waitForFunction(() => document.querySelector('[data-counter="finished"] .dashboard-counter-value')?.textContent === '2')
    expect(await counter(page, 'happening')).toBe('1')
    expect(await counter(page, 'pending')).toBe('1')
    // (50 + 70) / 2 = 60 min; waits 10, 30 and 2 min: 14 min.
    expect(await counter(page, 'support')).toBe('01h 00m')
    expect(await counter(page, 'wait')).toBe('00h 14m')
    const anaRow = page.getByRole('row').filter({ hasText: 'Ana Agent' })
    expect(await anaRow.getByRole('img', { name: '3 of 3 stars' }).count()).toBe(1)
    expect(await anaRow.getByRole('cell', { name: '01h 00m' }).count()).toBe(1)

    // Service levels of the queue and of Ana: one met, one breached, each.
    const slaRow = page.getByRole('table', { name: 'Service levels per queue' }).getByRole('row').filter({ hasText: 'Suporte' })
    expect((await slaRow.getByRole('cell').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(['Suporte', '15 min', '1 / 1 (50%)', '60 min', '1 / 1 (50%)'])
    // The charts: seven days, two of them with bars; two agents; the three rates.
    const dayBars = page.locator('.dashboard-chart-day .recharts-bar-rectangle path')
    await dayBars.first().waitFor()
    expect(await dayBars.count()).toBe(2)
    expect(await page.locator('.dashboard-chart-user .recharts-bar-rectangle path').count()).toBe(2)
    expect(await page.locator('.dashboard-chart-day .recharts-xAxis .recharts-cartesian-axis-tick').count()).toBeGreaterThan(1)

    // A counter opens its tickets; a bar opens its day's.
    await page.locator('[data-counter="pending"]').click()
    const dialog = page.getByRole('dialog', { name: 'Waiting' })
    await dialog.getByRole('link', { name: 'Fábio Cliente' }).waitFor()
    expect(await dialog.getByRole('link').getAttribute('href')).toBe(`/tickets/${waiting.uuid}`)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    // The first bar with a value is three days ago.
    await dayBars.first().click()
    const dayDialog = page.getByRole('dialog', { name: /^Attendances of / })
    await dayDialog.getByRole('link', { name: 'Carla Cliente' }).waitFor()
    expect((await dayDialog.getByRole('link').allTextContents()).sort()).toEqual(['Carla Cliente', 'Davi Cliente'])
    await dayDialog.getByRole('button', { name: 'Close' }).click()
    await dayDialog.waitFor({ state: 'detached' })
    // A service-level cell opens the attendances it counts: the queue's breached first response is Davi's.
    await slaRow.getByRole('button', { name: 'First response breached: Suporte: 1' }).click()
    const slaDialog = page.getByRole('dialog', { name: 'First response breached: Suporte' })
    await slaDialog.getByRole('link', { name: 'Davi Cliente' }).waitFor()
    expect(await slaDialog.getByRole('link').allTextContents()).toEqual(['Davi Cliente'])
    await slaDialog.getByRole('button', { name: 'Close' }).click()
    await slaDialog.waitFor({ state: 'detached' })

    // The inbox: each waiting ticket of a queue with targets shows its timer, counting down in place;
    // a late one is red in the list and in its header.
    await page.goto('/tickets')
    await page.getByRole('tab', { name: /^Pending/ }).click()
    const pendingList = page.getByRole('grid', { name: 'Pending tickets' })
    const freshTimer = pendingList.getByRole('row').filter({ hasText: 'Helena Fila' }).getByRole('timer')
    const lateTimer = pendingList.getByRole('row').filter({ hasText: 'Igor Atrasado' }).getByRole('timer')
    await freshTimer.waitFor()
    expect(await freshTimer.getAttribute('data-sla-state')).toBe('ok')
    expect(await freshTimer.getAttribute('aria-label')).toMatch(/^First response due in 1[0-4]m \d\ds$/)
    expect(await lateTimer.getAttribute('data-sla-state')).toBe('breached')
    expect(await lateTimer.getAttribute('aria-label')).toMatch(/^First response overdue by \d+m \d\ds$/)
    // Fábio's ticket has no queue, so no targets: no timer.
    expect(await pendingList.getByRole('row').filter({ hasText: 'Fábio Cliente' }).getByRole('timer').count()).toBe(0)
    // It ticks in the browser: two ticks, and no ticket request meanwhile (the top bar's own connection
    // check, 2 s after the load, may come).
    const requests: string[] = []
    const onRequest = (request: { url: () => string }) => void (new URL(request.url()).pathname.startsWith('/api/ticket') && requests.push(request.url()))
    page.on('request', onRequest)
    for (let tick = 0; tick < 2; tick++) {
      const shown = await freshTimer.textContent()
      await page.waitForFunction((before) => document.querySelector('.ticket-item [data-sla-state="ok"]')?.textContent !== before, shown)
    }
    page.off('request', onRequest)
    expect(requests).toEqual([])
    await page.screenshot({ path: join(screenshots, 'inbox-sla.png') })
    await page.getByRole('button', { name: 'Dark mode' }).click()
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    // Nothing under the pointer keeps a hover style in the screenshot.
    await page.mouse.move(900, 700)
    await page.screenshot({ path: join(screenshots, 'inbox-sla-dark.png') })
    await page.getByRole('button', { name: 'Dark mode' }).click()
    await page.waitForFunction(() => document.documentElement.dataset.theme !== 'dark')
    // (A pending ticket does not open from its row; its address opens it.)
    await withLiveSocket(page, () => page.goto(`/tickets/${late.uuid}`))
    const headerTimer = page.locator('.ticket-header [role="timer"]')
    await headerTimer.waitFor()
    expect(await headerTimer.getAttribute('data-sla-state')).toBe('breached')
    // The timer sweep (run here as the job runs it) alerts the admin: a toast leading to the ticket.
    expect(await alertSlaBreaches(harness.context.deps, tenant.company.id)).toBe(1)
    const alert = page.locator('.toast').filter({ hasText: 'Service level breached: Igor Atrasado is still waiting for a first response.' })
    await alert.waitFor()
    expect(await alert.getByRole('link', { name: 'Open ticket' }).getAttribute('href')).toBe(`/tickets/${late.uuid}`)
    await alert.locator('.toast-close').click()
    await page.goto('/')
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()

    // §5: no period and no dates is refused with a toast.
    await page.getByRole('button', { name: 'Period' }).click()
    await page.getByRole('option', { name: 'None (by dates)' }).click()
    await page.getByLabel('Start date').fill('')
    await page.getByLabel('End date').fill('')
    await page.getByRole('button', { name: 'Filter', exact: true }).click()
    await page.getByText('Choose a period or a date to filter.').last().waitFor()

    // Light and dark screenshots of the last 7 days (the top bar's toggle: no reload).
    await pickLastSevenDays(page, 'Period', 'Last 7 days', 'Filter')
    await page.waitForFunction(() => document.querySelector('[data-counter="finished"] .dashboard-counter-value')?.textContent === '2')
    await page.locator('.dashboard-chart-day .recharts-bar-rectangle path').first().waitFor()
    await page.locator('.toast-close').evaluateAll((buttons) => buttons.forEach((button) => (button as HTMLElement).click()))
    await page.getByText('Choose a period or a date to filter.').waitFor({ state: 'detached' })
    await page.screenshot({ path: join(screenshots, 'dashboard.png') })
    await page.getByRole('button', { name: 'Dark mode' }).click()
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    await page.screenshot({ path: join(screenshots, 'dashboard-dark.png') })

    for (const [language, title, period, option, filter, waitingLabel, overdue] of [
      ['pt', 'Painel', 'Período', 'Últimos 7 dias', 'Filtrar', 'Aguardando', 'Primeira resposta atrasada há'],
      ['es', 'Panel', 'Período', 'Últimos 7 días', 'Filtrar', 'En espera', 'Primera respuesta atrasada'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      // The late ticket's timer in this language.
      await page.goto(`/tickets/${late.uuid}`)
      await page.locator('.ticket-header [role="timer"]').waitFor()
      expect(await page.locator('.ticket-header [role="timer"]').getAttribute('aria-label')).toMatch(new RegExp(`^${overdue} \\d+m \\d\\ds$`))
      await page.goto('/')
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await pickLastSevenDays(page, period, option, filter)
      await page.waitForFunction(() => document.querySelector('[data-counter="finished"] .dashboard-counter-value')?.textContent === '2')
      expect(await page.locator('[data-counter="pending"] .dashboard-counter-label').textContent()).toBe(waitingLabel)
      await page.locator('.dashboard-chart-day .recharts-bar-rectangle path').first().waitFor()
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
