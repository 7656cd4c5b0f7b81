// The schedules page and the schedule-message dialog in the browser (§2 Schedules, §3, §5, §9): add from
// the page (contact autocomplete, §5 messages, default time one hour ahead in the browser's time zone,
// image attachment), see it on the calendar and the agenda, edit, /schedules?contactId= prefilled, a
// sent one read-only, delete, live changes from the `schedule` channel, languages and the screenshot;
// follow-ups (issue 12 item 7): a weekly message, three times, cancelled if the customer replies first,
// made in English, Portuguese and Spanish, its occurrences on the agenda, and their screenshots.
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { schedules } from '../../db/schema/index.ts'
import { makeCompany, makeContact, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')
/** A zone other than the machine's (UTC here), with no daylight saving since 2019: offsets stay -03:00. */
const TIME_ZONE = 'America/Sao_Paulo'
const HOUR = 60 * 60 * 1000

/** A 1×1 PNG: the server checks an image's bytes, not its name. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64')

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** A moment's parts as the browser in TIME_ZONE shows them (dd/MM/yyyy HH:mm). */
function localParts(moment: Date) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(moment)
  const part = (type: string) => parts.find((item) => item.type === type)!.value
  return { day: part('day'), month: part('month'), year: part('year'), hour: part('hour'), minute: part('minute') }
}

/** The segments of the dialog's date-and-time field, in order (day, month, year, hour, minute). */
async function sendAtSegments(page: Page): Promise<string[]> {
  return page.getByRole('dialog').locator('.schedule-date-segment:not([data-type="literal"])').allTextContents()
}

async function tenant() {
  const plan = await makePlan(harness.context.db)
  const company = await makeCompany(harness.context.db, { planId: plan.id })
  const user = await makeUser(harness.context.db, { companyId: company.id, profile: 'user', name: 'Ana Lima' })
  const colleague = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
  const client = harness.context.as((await signIn(harness.context, colleague)).token)
  return { plan, company, user, client }
}

const countError = 'Choose from 2 to 365 times.'

const languages = [
  {
    code: 'en',
    heading: 'Schedules',
    add: 'Add schedule',
    repeat: 'Repeat',
    weekly: 'Weekly',
    times: 'Times',
    cancelOnReply: 'Cancel if the customer replies first',
    submit: 'Schedule',
    agenda: 'Agenda',
  },
  {
    code: 'pt',
    heading: 'Agendamentos',
    add: 'Adicionar agendamento',
    repeat: 'Repetir',
    weekly: 'Semanal',
    times: 'Vezes',
    cancelOnReply: 'Cancelar se o cliente responder antes',
    submit: 'Agendar',
    agenda: 'Agenda',
  },
  {
    code: 'es',
    heading: 'Programaciones',
    add: 'Agregar programación',
    repeat: 'Repetir',
    weekly: 'Semanal',
    times: 'Veces',
    cancelOnReply: 'Cancelar si el cliente responde antes',
    submit: 'Programar',
    agenda: 'Agenda',
  },
] as const

describeInBrowser('schedules page', () => {
  test('add from the page with the §5 rules and an image, see it on the calendar and agenda, then edit it', async () => {
    const { company, user } = await tenant()
    const maria = await makeContact(harness.context.db, { companyId: company.id, name: 'Maria Silva', number: '5511987654321' })
    await makeContact(harness.context.db, { companyId: company.id, name: 'Mario Souza', number: '5511912345678' })

    const { page, browserContext, problems } = await openPage(harness, { timezoneId: TIME_ZONE })
    const contactSearches: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname === '/api/contacts/list') contactSearches.push(url.searchParams.get('searchParam') ?? '')
    })
    await signInTo(page, user, '/schedules')
    await page.getByRole('heading', { name: 'Schedules (0)', level: 1 }).waitFor()
    expect(await page.title()).toContain('Schedules')
    // The four views, month first.
    const views = page.getByRole('radiogroup', { name: 'Calendar view' })
    // The calendar comes in its own chunk after the page's first paint: wait for it before reading.
    await views.getByRole('radio', { name: 'Agenda' }).waitFor()
    expect(await views.getByRole('radio').allTextContents()).toEqual(['Month', 'Week', 'Day', 'Agenda'])
    expect(await views.getByRole('radio', { name: 'Month' }).isChecked()).toBe(true)

    // The dialog reads the clock as it opens, somewhere between these two instants (a minute may turn in between).
    const beforeOpening = Date.now()
    await page.getByRole('button', { name: 'Add schedule' }).click()
    const dialog = page.getByRole('dialog', { name: 'New scheduled message', exact: true })
    await dialog.waitFor()
    const opened = Date.now()
    // §9: one hour ahead, on the minute, as the browser's clock (São Paulo) read it then.
    const onTheMinute = (moment: number) => Math.floor(moment / 60_000) * 60_000
    const expected = [...new Set([onTheMinute(beforeOpening + HOUR), onTheMinute(opened + HOUR)])].map((moment) => localParts(new Date(moment)))
    const segments = await sendAtSegments(page)
    expect(expected.map((parts) => [parts.day, parts.month, parts.year, parts.hour, parts.minute])).toContainEqual(segments)

    // §5: everything missing, then a body too short.
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    // One check shows both messages at once: counted once they are on screen.
    await dialog.getByText('Required', { exact: true }).first().waitFor()
    expect(await dialog.getByText('Required', { exact: true }).count()).toBe(2)
    await dialog.getByLabel('Message').fill('Hi')
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await dialog.getByText('Message too short').waitFor()

    // The contact autocomplete asks only from 3 characters.
    const contactBox = dialog.getByRole('combobox', { name: 'Contact' })
    await contactBox.fill('Ma')
    await page.waitForTimeout(600)
    expect(contactSearches).toEqual([])
    await contactBox.fill('Mar')
    await page.getByRole('option', { name: 'Maria Silva (5511987654321)' }).click()
    expect(contactSearches).toEqual(['Mar'])
    // The picker writes the chosen contact into its input in an effect: waited for, then checked.
    await waitFor(async () => (await contactBox.inputValue()) === 'Maria Silva (5511987654321)')
    expect(await contactBox.inputValue()).toBe('Maria Silva (5511987654321)')

    // §5: the attachment must be a png, jpg or jpeg image.
    await dialog.getByLabel('Message').fill('Your order is ready.')
    let chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Attach image' }).click()
    await (await chooser).setFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await dialog.getByText('Attach a png, jpg or jpeg image.').waitFor()
    expect(await harness.context.db.select().from(schedules).where(eq(schedules.companyId, company.id))).toEqual([])
    chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Replace image' }).click()
    await (await chooser).setFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png })
    await dialog.getByText('receipt.png').waitFor()
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await page.getByText('Message scheduled.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Schedules (1)', level: 1 }).waitFor()

    // Stored as the moment the browser showed, sent with its offset; the image attached.
    const [stored] = await harness.context.db.select().from(schedules).where(eq(schedules.companyId, company.id))
    expect(stored!).toMatchObject({ body: 'Your order is ready.', contactId: maria.id, ticketId: null, userId: user.id, status: 'PENDENTE', mediaName: 'receipt.png' })
    expect(stored!.sendAt.getTime() % 60_000).toBe(0)
    expect(stored!.sendAt.getTime()).toBeGreaterThanOrEqual(onTheMinute(beforeOpening + HOUR))
    expect(stored!.sendAt.getTime()).toBeLessThanOrEqual(opened + HOUR)

    // On the agenda, at its local time (an hour ahead may be next month: the agenda spans a month ahead).
    await views.getByRole('radio', { name: 'Agenda' }).click()
    const agendaRow = page.locator('.rbc-agenda-table tbody tr').filter({ hasText: 'Maria Silva: Your order is ready.' })
    await agendaRow.waitFor()
    const sendAtLocal = localParts(stored!.sendAt)
    expect(await agendaRow.locator('.rbc-agenda-time-cell').textContent()).toBe(`${sendAtLocal.hour}:${sendAtLocal.minute}`)
    // And in the week or day view of its day.
    await views.getByRole('radio', { name: 'Day' }).click()
    if (sendAtLocal.day !== localParts(new Date()).day) await page.getByRole('button', { name: 'Next', exact: true }).click()
    await page.locator('.rbc-time-view .rbc-event').filter({ hasText: 'Maria Silva: Your order is ready.' }).waitFor()

    // Edit: the text, and the time one year later (the year segment: no wrap-around into the past).
    await page.locator('.rbc-event').filter({ hasText: 'Maria Silva' }).getByRole('button').click()
    const edit = page.getByRole('dialog', { name: 'Edit scheduled message', exact: true })
    await edit.waitFor()
    expect(await edit.getByLabel('Message').inputValue()).toBe('Your order is ready.')
    expect(await edit.getByRole('link', { name: 'receipt.png' }).getAttribute('href')).toContain('/public/')
    expect(await sendAtSegments(page)).toEqual([sendAtLocal.day, sendAtLocal.month, sendAtLocal.year, sendAtLocal.hour, sendAtLocal.minute])
    await edit.getByLabel('Message').fill('Your order is ready for pickup.')
    await edit.locator('.schedule-date-segment[data-type="year"]').press('ArrowUp')
    // Dropping the image on save.
    await edit.getByRole('button', { name: 'Remove the image' }).click()
    await edit.getByText('No image').waitFor()
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Scheduled message saved.').waitFor()
    await edit.waitFor({ state: 'detached' })
    const [edited] = await harness.context.db.select().from(schedules).where(eq(schedules.id, stored!.id))
    expect(edited!).toMatchObject({ body: 'Your order is ready for pickup.', mediaName: null, mediaPath: null })
    const nextYear = new Date(stored!.sendAt)
    nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1)
    expect(edited!.sendAt.toISOString()).toBe(nextYear.toISOString())
    // A year away it leaves this day's view; the count stays.
    await page.locator('.rbc-event').filter({ hasText: 'Maria Silva' }).waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Schedules (1)', level: 1 }).waitFor()

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('/schedules?contactId= opens the add dialog for that contact, once; the server\'s refusal shows on the field', async () => {
    const { company, user } = await tenant()
    const joao = await makeContact(harness.context.db, { companyId: company.id, name: 'João Pereira', number: '5521999990000' })
    const { page, browserContext, problems } = await openPage(harness, { timezoneId: TIME_ZONE })
    await signInTo(page, user, `/schedules?contactId=${joao.id}`)
    const dialog = page.getByRole('dialog', { name: 'New scheduled message', exact: true })
    await dialog.waitFor()
    const contactField = dialog.getByRole('textbox', { name: 'Contact' })
    expect(await contactField.inputValue()).toBe('João Pereira (5521999990000)')
    expect(await contactField.getAttribute('readonly')).not.toBeNull()
    expect(new URL(page.url()).search).toBe('')

    // The server refuses a time in the past even when the browser's clock is behind: shown on the field.
    await dialog.getByLabel('Message').fill('Your appointment is tomorrow.')
    const sentTimes: string[] = []
    await page.route('**/api/schedules', async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>
      sentTimes.push(String(body.sendAt))
      // A valid time, but in the past.
      await route.continue({ postData: JSON.stringify({ ...body, sendAt: '2020-01-01T10:00:00-03:00' }) })
    })
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await dialog.getByText('Choose a moment in the future.').waitFor()
    // ISO 8601 with the browser's offset, not converted to UTC.
    expect(sentTimes).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?-03:00$/)])
    await page.unroute('**/api/schedules')
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await page.getByText('Message scheduled.').waitFor()
    const [stored] = await harness.context.db.select().from(schedules).where(eq(schedules.companyId, company.id))
    expect(stored!).toMatchObject({ contactId: joao.id, body: 'Your appointment is tomorrow.' })

    // Once: a reload does not open it again.
    await page.reload()
    await page.getByRole('heading', { name: 'Schedules (1)', level: 1 }).waitFor()
    await page.waitForTimeout(300)
    expect(await page.getByRole('dialog').count()).toBe(0)
    expect(unexpectedErrors(problems, [422])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('sent ones open read-only, a failed one says so; live create, update and delete; delete confirmed; search', async () => {
    const { company, user, client } = await tenant()
    const maria = await makeContact(harness.context.db, { companyId: company.id, name: 'Maria Silva', number: '5511987654321' })
    const pedro = await makeContact(harness.context.db, { companyId: company.id, name: 'Pedro Alves', number: '5531988887777' })
    const inTwoHours = new Date(Date.now() + 2 * HOUR).toISOString()
    const sent = (await client.api.schedules.post({ body: 'Happy birthday, Maria!', sendAt: inTwoHours, contactId: maria.id })).data!
    const failed = (await client.api.schedules.post({ body: 'Your invoice is due.', sendAt: inTwoHours, contactId: pedro.id })).data!
    const sentAt = new Date(Date.now() - HOUR)
    sentAt.setSeconds(0, 0)
    await harness.context.db.update(schedules).set({ status: 'ENVIADA', sentAt }).where(eq(schedules.id, sent.id))
    await harness.context.db.update(schedules).set({ status: 'ERRO', error: 'connection closed' }).where(eq(schedules.id, failed.id))

    const { page, browserContext, problems } = await openPage(harness, { timezoneId: TIME_ZONE })
    await signInTo(page, user, '/schedules')
    await page.getByRole('heading', { name: 'Schedules (2)', level: 1 }).waitFor()
    await page.getByRole('radiogroup', { name: 'Calendar view' }).getByRole('radio', { name: 'Agenda' }).click()
    const row = (text: string) => page.locator('.rbc-agenda-table tbody tr').filter({ hasText: text })
    await row('Maria Silva').getByText('Sent', { exact: true }).waitFor()
    await row('Pedro Alves').getByText('Send error', { exact: true }).waitFor()
    expect(await page.locator('.rbc-event.schedule-status-erro, .schedule-event-status.schedule-status-erro').count()).toBeGreaterThan(0)

    // Sent: read-only, no save; says when it went out.
    await row('Maria Silva').getByRole('button').click()
    const view = page.getByRole('dialog', { name: 'Scheduled message', exact: true })
    await view.waitFor()
    const local = localParts(sentAt)
    await view.getByText(`Sent on ${local.day}/${local.month}/${local.year} ${local.hour}:${local.minute}. A message already sent can no longer be changed.`).waitFor()
    expect(await view.getByLabel('Message').getAttribute('readonly')).not.toBeNull()
    expect(await view.getByRole('textbox', { name: 'Contact' }).getAttribute('readonly')).not.toBeNull()
    expect(await view.getByRole('button', { name: 'Save' }).count()).toBe(0)
    expect(await view.getByRole('button', { name: 'Attach image' }).count()).toBe(0)
    expect(await view.locator('.schedule-date-segment[data-type="day"]').getAttribute('aria-readonly')).toBe('true')
    await view.getByRole('button', { name: 'Close' }).click()

    // Failed: editable, with the reason; saving schedules it again.
    await row('Pedro Alves').getByRole('button').click()
    const retry = page.getByRole('dialog', { name: 'Edit scheduled message', exact: true })
    await retry.getByText('The last attempt to send it failed (connection closed). Saving schedules it again.').waitFor()
    await retry.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Scheduled message saved.').waitFor()
    await row('Pedro Alves').waitFor()
    // The row is there already: its status changes once the saved schedule comes back to the list.
    await row('Pedro Alves').getByText('Send error').waitFor({ state: 'detached' })
    expect(await row('Pedro Alves').getByText('Send error').count()).toBe(0)

    // Live: a colleague adds one, edits it, and the dispatcher's status changes arrive the same way.
    const live = (await client.api.schedules.post({ body: 'Stock arrives on Monday.', sendAt: inTwoHours, contactId: pedro.id })).data!
    await row('Stock arrives on Monday.').waitFor()
    await page.getByRole('heading', { name: 'Schedules (3)', level: 1 }).waitFor()
    await client.api.schedules({ id: live.id }).put({ body: 'Stock arrives on Tuesday.' })
    await row('Stock arrives on Tuesday.').waitFor()
    await client.api.schedules({ id: live.id }).delete()
    await row('Stock arrives on Tuesday.').waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Schedules (2)', level: 1 }).waitFor()

    // Search (debounced, on the server): the contact's name.
    await page.getByRole('searchbox', { name: 'Search schedules' }).fill('pedro')
    await page.getByRole('heading', { name: 'Schedules (1)', level: 1 }).waitFor()
    expect(await row('Maria Silva').count()).toBe(0)
    await page.getByRole('searchbox', { name: 'Search schedules' }).fill('')
    await page.getByRole('heading', { name: 'Schedules (2)', level: 1 }).waitFor()

    // Delete (a sent one too: it is only history), confirmed.
    await row('Maria Silva').getByRole('button').click()
    await view.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete scheduled message', exact: true })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Scheduled message deleted.').waitFor()
    await row('Maria Silva').waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Schedules (1)', level: 1 }).waitFor()
    expect(await harness.context.db.select({ id: schedules.id }).from(schedules).where(eq(schedules.id, sent.id))).toEqual([])

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('a plan without schedules sends the user away (§6)', async () => {
    const plan = await makePlan(harness.context.db, { useSchedules: false })
    const company = await makeCompany(harness.context.db, { planId: plan.id })
    const user = await makeUser(harness.context.db, { companyId: company.id })
    const { page, browserContext } = await openPage(harness)
    await signInTo(page, user, '/schedules')
    await page.getByText('Your company does not have permission to access this page. Redirecting…').waitFor()
    await page.waitForURL((url) => url.pathname !== '/schedules')
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('Portuguese and Spanish labels, and the screenshots (light, dark)', async () => {
    mkdirSync(screenshots, { recursive: true })
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Quente' })
    const user = await makeUser(harness.context.db, { companyId: company.id, name: 'Ana Lima' })
    const client = harness.context.as((await signIn(harness.context, user)).token)
    // Fixed times of the coming days (09:00, 11:30, 15:00 local), whatever day the test runs.
    const contacts = await Promise.all(
      [
        ['Maria Silva', '5511987654321'],
        ['João Pereira', '5521999990000'],
        ['Pedro Alves', '5531988887777'],
      ].map(([name, number]) => makeContact(harness.context.db, { companyId: company.id, name, number })),
    )
    const at = (days: number, hour: number, minute = 0) => {
      const moment = new Date(Date.now() + days * 24 * HOUR)
      moment.setUTCHours(hour + 3, minute, 0, 0)
      return moment.toISOString()
    }
    const made = []
    for (const [days, hour, minute, contact, body] of [
      [1, 9, 0, 0, 'Seu pedido está pronto para retirada.'],
      [1, 15, 0, 1, 'Lembrete: sua consulta é amanhã às 10h.'],
      [2, 11, 30, 2, 'Promoção de pães doces neste sábado!'],
      [3, 9, 0, 0, 'Obrigado pela preferência!'],
    ] as const) {
      made.push((await client.api.schedules.post({ body, sendAt: at(days, hour, minute), contactId: contacts[contact]!.id })).data!)
    }
    await harness.context.db.update(schedules).set({ status: 'ERRO', error: 'connection closed' }).where(eq(schedules.id, made[1]!.id))

    // One signed-in page for the languages and the themes: the language is the stored one, the theme the
    // colour scheme the page is shown with (as a browser set to dark would).
    const { page, browserContext } = await openPage(harness, { timezoneId: TIME_ZONE })
    await signInThroughForm(page, user)
    for (const [language, title, month] of [
      ['pt', 'Agendamentos (4)', 'pt-BR'],
      ['es', 'Programaciones (4)', 'es-ES'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.goto('/schedules')
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      // The toolbar names the month in the language (dayjs locale), as "novembro 2026" / "noviembre 2026".
      const monthName = new Intl.DateTimeFormat(month, { month: 'long', timeZone: TIME_ZONE }).format(new Date())
      expect((await page.locator('.schedules-toolbar-label').textContent())!.toLowerCase()).toContain(monthName.toLowerCase())
    }

    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await page.evaluate(() => localStorage.setItem('language', 'pt'))
      await page.goto('/schedules')
      await page.getByRole('heading', { name: 'Agendamentos (4)', level: 1 }).waitFor()
      // The week of the first ones: more to see than a month grid of small bars.
      await page.getByRole('radiogroup').getByRole('radio').nth(1).click()
      if ((await page.locator('.rbc-event').count()) === 0) await page.locator('.schedules-toolbar-nav button').nth(2).click()
      await page.locator('.rbc-event').first().waitFor()
      // From 08:00, so that the day's messages (09:00 to 15:00) are all in view.
      await page.locator('.rbc-time-content').evaluate((content) => {
        const eight = content.querySelectorAll<HTMLElement>('.rbc-time-gutter .rbc-timeslot-group')[8]
        if (eight) content.scrollTop = eight.offsetTop
      })
      await settle(page)
      await page.screenshot({ path: join(screenshots, theme === 'light' ? 'schedules.png' : 'schedules-dark.png') })
      if (theme === 'light') {
        await page.locator('.rbc-event').first().getByRole('button').click()
        await page.getByRole('dialog').waitFor()
        await settle(page)
        await page.screenshot({ path: join(screenshots, 'schedule-dialog.png') })
      }
    }
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('a weekly follow-up, cancelled on reply, made in each language, shows its occurrences', async () => {
    mkdirSync(screenshots, { recursive: true })
    const plan = await makePlan(harness.context.db)
    const company = await makeCompany(harness.context.db, { planId: plan.id, name: 'Padaria Pão Doce' })
    const user = await makeUser(harness.context.db, { companyId: company.id, name: 'Ana Lima' })
    const contacts = await Promise.all(
      ['Marta Follow', 'Bruno Follow', 'Carla Follow'].map((name, index) => makeContact(harness.context.db, { companyId: company.id, name, number: `551198888000${index}` })),
    )
    const { page, browserContext, problems } = await openPage(harness, { timezoneId: 'America/Sao_Paulo' })
    await signInThroughForm(page, user)

    for (const [index, language] of languages.entries()) {
      const contact = contacts[index]!
      await page.evaluate((code) => localStorage.setItem('language', code), language.code)
      if (language.code === 'es') await page.emulateMedia({ colorScheme: 'dark' })
      await page.goto('/schedules')
      await page.getByRole('heading', { name: `${language.heading} (${index})`, level: 1 }).waitFor()
      await page.getByRole('button', { name: language.add }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      await dialog.getByRole('combobox').first().fill(contact.name.slice(0, 5))
      await page.getByRole('option', { name: `${contact.name} (${contact.number})` }).click()
      await dialog.getByRole('textbox').first().waitFor()
      await dialog.locator('textarea[name="body"]').fill('Conseguiu ver a proposta, {{firstName}}?')
      await dialog.locator('.field', { hasText: language.repeat }).first().locator('.select-button').click()
      await page.getByRole('option', { name: language.weekly, exact: true }).click()
      const times = dialog.getByRole('textbox', { name: language.times })
      if (language.code === 'en') {
        // The dialog's own check of the number of times; the message goes once the number is changed.
        await times.fill('1')
        await dialog.getByRole('button', { name: language.submit, exact: true }).click()
        await dialog.getByText(countError).waitFor()
      }
      await times.fill('3')
      if (language.code === 'en') expect(await dialog.getByText(countError).count()).toBe(0)
      // The switch's input is visually hidden: a person presses its label.
      await dialog.getByText(language.cancelOnReply, { exact: true }).click()
      expect(await dialog.getByRole('switch', { name: language.cancelOnReply }).isChecked()).toBe(true)
      if (language.code === 'en') await page.screenshot({ path: join(screenshots, 'schedule-followup-dialog.png') })
      await dialog.getByRole('button', { name: language.submit, exact: true }).click()
      await dialog.waitFor({ state: 'detached' })

      const [stored] = await harness.context.db
        .select()
        .from(schedules)
        .where(and(eq(schedules.companyId, company.id), eq(schedules.contactId, contact.id)))
      expect(stored).toMatchObject({ recurrence: 'weekly', recurrenceCount: 3, recurrenceUntil: null, cancelOnReply: true, status: 'PENDENTE' })

      // The agenda (the next 30 days) lists each of the three occurrences, a week apart.
      await page.getByRole('radio', { name: language.agenda }).click()
      const rows = page.locator('.rbc-agenda-table tbody tr', { hasText: contact.name })
      await waitFor(async () => (await rows.count()) === 3)
      expect(await rows.count()).toBe(3)
      // Each occurrence is marked as a repetition.
      expect(await rows.locator('.schedule-event-repeat').count()).toBe(3)
      if (language.code !== 'en') {
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
        await page.screenshot({ path: join(screenshots, language.code === 'es' ? 'schedule-followups-dark.png' : 'schedule-followups.png') })
      }
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
