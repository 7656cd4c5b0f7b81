// The settings page (issue 6 item 6) in the browser: the §9 options saved as they change and kept after
// a reload, the company's hours tab only with scheduleType 'company', the super users' companies (§9
// due-date colours, create with its admin, renew, edit, delete), plans and helps tabs, the §6 gates,
// and the scenario: a super user creates a plan and a company whose admin then signs in.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { companies, plans, settings } from '../../db/schema/index.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { openSecretSetting } from '../../src/modules/settings/service.ts'
import { daysFromToday, makeCompany, makePlan, makeSuper, makeTenant } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true })
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  // Toasts come and go: the picture is of the page, not of the last confirmation.
  await page.locator('.toast').evaluateAll((toasts) => toasts.forEach((toast) => ((toast as HTMLElement).style.visibility = 'hidden')))
  await page.screenshot({ path: join(screenshots, name) })
}

/** The rows of a table's body that hold data (not the empty, loading or sentinel rows). */
function dataRows(page: Page, table: string) {
  return page.getByRole('table', { name: table }).locator('tbody tr:not(:has(.data-table-empty, .data-table-loading, .data-table-sentinel))')
}

function row(page: Page, table: string, text: string) {
  return dataRows(page, table).filter({ hasText: text })
}

/** Waits for the PUT of one setting to be answered 200. */
function settingSaved(page: Page, key: string) {
  return page.waitForResponse((response) => response.url().endsWith(`/api/settings/${key}`) && response.request().method() === 'PUT' && response.status() === 200)
}

/** The companies table shows the five companies of this test and nothing else (the search has applied). */
function onlySearched(page: Page, stamp: string) {
  return page.waitForFunction((text) => {
    const rows = [...document.querySelectorAll('table[aria-label="Companies"] tbody tr')]
    return rows.length === 5 && rows.every((tr) => tr.textContent?.includes(text))
  }, stamp)
}

async function tabNames(page: Page): Promise<string[]> {
  await page.getByRole('tablist', { name: 'Settings sections' }).waitFor()
  return page.getByRole('tab').allInnerTexts()
}

describeInBrowser('settings page: options and hours', () => {
  test('an admin changes the options (kept after a reload); the hours tab comes with scheduleType company and saves a week', async () => {
    const tenant = await makeTenant(harness.context)
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, tenant.admin, '/settings')
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    expect(await tabNames(page)).toEqual(['Options'])

    // The §9 defaults as the server keeps them.
    const rating = page.getByRole('switch', { name: 'Attendance rating' })
    expect(await rating.isChecked()).toBe(false)
    expect(await page.getByRole('switch', { name: 'Ignore group messages' }).isChecked()).toBe(true)
    expect(await page.getByRole('switch', { name: 'Greeting with a single queue' }).isChecked()).toBe(true)
    for (const name of ['Accept calls', 'Greet when a ticket is accepted', 'Message on transfer']) await page.getByRole('switch', { name }).waitFor()
    await page.getByRole('button', { name: /Chatbot type/ }).getByText('Text').waitFor()

    // A switch is saved the moment it changes, with the §8 toast.
    let saved = settingSaved(page, 'userRating')
    await page.getByText('Attendance rating', { exact: true }).click()
    await saved
    await page.getByText('Operation updated successfully.').first().waitFor()
    expect(await rating.isChecked()).toBe(true)
    saved = settingSaved(page, 'call')
    await page.getByText('Accept calls', { exact: true }).click()
    await saved

    // scheduleType company: the hours tab appears at once.
    saved = settingSaved(page, 'scheduleType')
    await page.getByRole('button', { name: /Business hours/ }).click()
    await page.getByRole('option', { name: 'Per company' }).click()
    await saved
    await page.getByRole('tab', { name: 'Hours' }).waitFor()

    // The payment token: masked, saved with its button.
    const token = page.getByLabel('Asaas token')
    expect(await token.getAttribute('type')).toBe('password')
    await token.fill('aact_test_token_123')
    saved = settingSaved(page, 'asaas')
    await page.getByRole('button', { name: 'Save token' }).click()
    await saved

    // From the database: the browser's sign-in ended the API session of the same user.
    const stored = Object.fromEntries(
      (await harness.context.db.select().from(settings).where(eq(settings.companyId, tenant.company.id))).map(({ key, value }) => [key, value]),
    )
    expect(stored).toMatchObject({ userRating: 'enabled', call: 'disabled', scheduleType: 'company' })
    // The token is sealed at rest, and the field now holds its masked form (a save of it is disabled).
    expect(isSealed(stored.asaas!)).toBe(true)
    expect(await openSecretSetting(harness.context.deps, tenant.company.id, 'asaas')).toBe('aact_test_token_123')
    expect(await token.inputValue()).toBe('****_123')
    expect(await page.getByRole('button', { name: 'Save token' }).isDisabled()).toBe(true)

    await page.reload()
    await page.getByRole('switch', { name: 'Attendance rating' }).waitFor()
    expect(await page.getByRole('switch', { name: 'Attendance rating' }).isChecked()).toBe(true)
    expect(await page.getByRole('switch', { name: 'Accept calls' }).isChecked()).toBe(false)
    await page.getByRole('button', { name: /Business hours/ }).getByText('Per company').waitFor()
    expect(await page.getByLabel('Asaas token').inputValue()).toBe('****_123')
    expect(await tabNames(page)).toEqual(['Options', 'Hours'])
    await screenshot(page, 'settings.png')

    // The week: §9 defaults, checked before sending (HH:MM, closing not before opening).
    await page.getByRole('tab', { name: 'Hours' }).click()
    const opens = page.getByRole('textbox', { name: 'Monday opens' })
    const closes = page.getByRole('textbox', { name: 'Monday closes' })
    expect(await opens.inputValue()).toBe('08:00')
    expect(await page.getByRole('textbox', { name: 'Saturday closes' }).inputValue()).toBe('12:00')
    expect(await page.getByRole('textbox', { name: 'Sunday opens' }).inputValue()).toBe('00:00')
    let puts = 0
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/schedules')) puts++
    })
    await opens.fill('25:00')
    await page.getByRole('button', { name: 'Save schedules' }).click()
    await page.getByText('Use HH:MM, from 00:00 to 23:59.').waitFor()
    expect(await opens.getAttribute('aria-invalid')).toBe('true')
    await opens.fill('09:00')
    await closes.fill('08:30')
    await page.getByRole('button', { name: 'Save schedules' }).click()
    await page.getByText('Closing must not be before opening.').waitFor()
    expect(puts).toBe(0)
    await closes.fill('17:30')
    await page.getByRole('textbox', { name: 'Sunday closes' }).fill('00:00')
    await page.getByRole('button', { name: 'Save schedules' }).click()
    await page.getByText('Schedules saved.').waitFor()
    expect(puts).toBe(1)
    const [company] = await harness.context.db.select({ schedules: companies.schedules }).from(companies).where(eq(companies.id, tenant.company.id))
    expect(company!.schedules).toHaveLength(7)
    expect(company!.schedules.find((entry) => entry.weekdayEn === 'monday')).toMatchObject({ startTime: '09:00', endTime: '17:30' })
    expect(company!.schedules.find((entry) => entry.weekdayEn === 'friday')).toMatchObject({ startTime: '08:00', endTime: '18:00' })

    // The tab is in the address: a reload opens it again with the stored week.
    expect(new URL(page.url()).searchParams.get('tab')).toBe('schedules')
    await page.reload()
    expect(await page.getByRole('textbox', { name: 'Monday closes' }).inputValue()).toBe('17:30')

    // Hours kept per queue: the tab goes away.
    await page.getByRole('tab', { name: 'Options' }).click()
    saved = settingSaved(page, 'scheduleType')
    await page.getByRole('button', { name: /Business hours/ }).click()
    await page.getByRole('option', { name: 'Per queue' }).click()
    await saved
    await page.getByRole('tab', { name: 'Hours' }).waitFor({ state: 'detached' })
    expect(await tabNames(page)).toEqual(['Options'])

    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('an admin without the super flag has no companies, plans or helps tabs; an agent is turned away; pt and es', async () => {
    const tenant = await makeTenant(harness.context)
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, tenant.admin)
    // Asking for a super user's tab by address falls back to the options.
    await page.goto('/settings?tab=companies')
    await page.getByRole('switch', { name: 'Attendance rating' }).waitFor()
    expect(await tabNames(page)).toEqual(['Options'])
    expect(await page.getByRole('table', { name: 'Companies' }).count()).toBe(0)
    for (const [language, title, option] of [
      ['pt', 'Configurações', 'Opções'],
      ['es', 'Configuración', 'Opciones'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.reload()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await page.getByRole('tab', { name: option, exact: true }).waitFor()
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()

    const agent = await openPage(harness)
    await signInTo(agent.page, tenant.agent, '/settings')
    await agent.page.getByText('You do not have permission to access this page.').waitFor()
    // The gate redirects after 1 s; the next page's load on a busy machine takes what it takes.
    await agent.page.waitForURL((url) => url.pathname !== '/settings', { timeout: 20_000 })
    expect(await agent.page.getByRole('tablist', { name: 'Settings sections' }).count()).toBe(0)
    expect(unexpectedErrors(agent.problems)).toEqual([])
    await agent.browserContext.close()
  }, E2E_TIMEOUT)
})

describeInBrowser('settings page: super users', () => {
  test('a super user creates a plan and a company with its admin, who then signs in through the login form', async () => {
    const platform = await makeSuper(harness.context)
    const stamp = Date.now().toString(36)
    const planName = `Gold ${stamp}`
    const companyName = `Padaria ${stamp}`
    const adminEmail = `padaria-${stamp}@example.com`

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, platform.user, '/settings?tab=plans')
    expect(await tabNames(page)).toEqual(['Options', 'Companies', 'Plans', 'Helps'])

    // A plan: checked before sending, every feature enabled by default (§9).
    await page.getByRole('button', { name: 'Add plan' }).click()
    const planDialog = page.getByRole('dialog', { name: 'New plan' })
    for (const name of ['Campaigns', 'Kanban', 'OpenAI prompts', 'Integrations', 'Schedules', 'Internal chat', 'External API', 'Public']) {
      expect(await planDialog.getByRole('switch', { name }).isChecked()).toBe(true)
    }
    await planDialog.getByRole('textbox', { name: 'Name' }).fill(planName)
    await planDialog.getByRole('textbox', { name: 'Users' }).fill('0')
    await planDialog.getByRole('button', { name: 'Save' }).click()
    // One check shows every message at once: counted once they are on screen.
    await planDialog.getByText('Enter a price of at least 0, with up to 2 decimals.').waitFor()
    expect(await planDialog.getByText('Enter a whole number of at least 1.').count()).toBe(3)
    await planDialog.getByRole('textbox', { name: 'Users' }).fill('5')
    await planDialog.getByRole('textbox', { name: 'Connections' }).fill('2')
    await planDialog.getByRole('textbox', { name: 'Queues' }).fill('4')
    await planDialog.getByRole('textbox', { name: 'Price' }).fill('149,90')
    await planDialog.getByText('Kanban', { exact: true }).click()
    await planDialog.getByText('Public', { exact: true }).click()
    await planDialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Plan created.').waitFor()
    const planRow = row(page, 'Plans', planName)
    await planRow.waitFor()
    expect(await planRow.innerText()).toMatch(/149\.90/)
    expect(await planRow.innerText()).toContain('Private')
    expect(await planRow.getByText('Kanban').count()).toBe(0)
    const [plan] = await harness.context.db.select().from(plans).where(eq(plans.name, planName))
    expect(plan).toMatchObject({ users: 5, connections: 2, queues: 4, useKanban: false, useCampaigns: true, useExternalApi: true, isPublic: false })
    expect(Number(plan!.value)).toBe(149.9)

    // The same name again: the server's refusal lands on the field.
    await page.getByRole('button', { name: 'Add plan' }).click()
    await planDialog.getByRole('textbox', { name: 'Name' }).fill(planName)
    for (const [name, value] of [['Users', '1'], ['Connections', '1'], ['Queues', '1'], ['Price', '0']] as const) await planDialog.getByRole('textbox', { name }).fill(value)
    await planDialog.getByRole('button', { name: 'Save' }).click()
    await planDialog.getByText('A plan with this name already exists.').waitFor()
    await planDialog.getByRole('button', { name: 'Cancel' }).click()

    // A company on it, with its admin (the server creates him when a password is given). Its due date
    // defaults to 30 days from the day the form opens: known on either side of a midnight.
    await page.getByRole('tab', { name: 'Companies' }).click()
    const dueWhenOpened = daysFromToday(30)
    await page.getByRole('button', { name: 'Add company' }).click()
    const companyDialog = page.getByRole('dialog', { name: 'New company' })
    await companyDialog.getByRole('textbox', { name: 'Name' }).fill('P')
    await companyDialog.getByRole('textbox', { name: 'E-mail' }).fill('not-an-email')
    await companyDialog.getByLabel('Admin password').fill('abc')
    await companyDialog.getByRole('button', { name: 'Save' }).click()
    await companyDialog.getByText('Enter a name of 2 to 50 characters.').waitFor()
    await companyDialog.getByText('Enter a valid e-mail address.').waitFor()
    await companyDialog.getByText('Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.').waitFor()
    await companyDialog.getByRole('textbox', { name: 'Name' }).fill(companyName)
    await companyDialog.getByRole('textbox', { name: 'E-mail' }).fill(adminEmail)
    await companyDialog.getByRole('textbox', { name: 'Phone' }).pressSequentially('11987654321')
    expect(await companyDialog.getByRole('textbox', { name: 'Phone' }).inputValue()).toBe('(11) 98765-4321')
    await companyDialog.getByRole('button', { name: /Plan/ }).click()
    await page.getByRole('option', { name: planName }).click()
    await companyDialog.getByRole('button', { name: /Recurrence/ }).click()
    await page.getByRole('option', { name: 'Quarterly' }).click()
    await companyDialog.getByLabel('Admin password').fill('Padaria123')
    await companyDialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Company created.').waitFor()
    await row(page, 'Companies', companyName).getByText('Quarterly').waitFor()
    const [created] = await harness.context.db.select().from(companies).where(eq(companies.name, companyName))
    expect(created).toMatchObject({ email: adminEmail, phone: '11987654321', planId: plan!.id, status: true, recurrence: 'TRIMESTRAL' })
    expect([...new Set([dueWhenOpened, daysFromToday(30)])]).toContain(created!.dueDate!)
    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()

    // That company's admin signs in through the login form and lands in the inbox of his company.
    const admin = await openPage(harness)
    await signInThroughForm(admin.page, { email: adminEmail, password: 'Padaria123' })
    await admin.page.getByText(companyName, { exact: false }).first().waitFor()
    // He is an admin of his company, not a super user: his settings have no companies tab.
    await admin.page.goto('/settings')
    expect(await tabNames(admin.page)).toEqual(['Options'])
    expect(unexpectedErrors(admin.problems)).toEqual([])
    await admin.browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('companies are tinted by days to their due date (with words); renew, edit and delete; screenshot in the dark theme', async () => {
    const platform = await makeSuper(harness.context)
    const plan = await makePlan(harness.context.db, { name: `Basic ${Date.now().toString(36)}` })
    const stamp = Date.now().toString(36)
    const name = (label: string) => `${label} ${stamp}`
    // The days to each due date are counted in the browser: its clock is fixed to the moment they were
    // set from, so that a midnight passing meanwhile does not shift them by one.
    const today = new Date()
    await makeCompany(harness.context.db, { planId: plan.id, name: name('Five days'), dueDate: daysFromToday(5, today) })
    await makeCompany(harness.context.db, { planId: plan.id, name: name('Two days'), dueDate: daysFromToday(2, today) })
    await makeCompany(harness.context.db, { planId: plan.id, name: name('Three past'), dueDate: daysFromToday(-3, today) })
    await makeCompany(harness.context.db, { planId: plan.id, name: name('Ten past'), dueDate: daysFromToday(-10, today), recurrence: 'MENSAL' })
    await makeCompany(harness.context.db, { planId: plan.id, name: name('Far away'), dueDate: daysFromToday(40, today) })

    const { page, browserContext, problems } = await openPage(harness)
    await page.clock.setFixedTime(today)
    await signInTo(page, platform.user, '/settings?tab=companies')
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(stamp)
    await onlySearched(page, stamp)
    const classOf = (label: string) => row(page, 'Companies', name(label)).getAttribute('class')
    expect(await classOf('Five days')).toContain('company-due-yellow')
    expect(await classOf('Two days')).toContain('company-due-orange')
    expect(await classOf('Three past')).toContain('company-due-orange')
    expect(await classOf('Ten past')).toContain('company-due-red')
    expect((await classOf('Far away')) ?? '').not.toContain('company-due')
    await row(page, 'Companies', name('Five days')).getByText('Due in 5 days').waitFor()
    await row(page, 'Companies', name('Three past')).getByText('Overdue by 3 days').waitFor()
    await row(page, 'Companies', name('Ten past')).getByText('Overdue by 10 days').waitFor()
    // Own company: never deleted, so not offered.
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(platform.company.name)
    await row(page, 'Companies', platform.company.name).waitFor()
    expect(await row(page, 'Companies', platform.company.name).getByRole('button', { name: /^Delete / }).count()).toBe(0)
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(stamp)
    await row(page, 'Companies', name('Ten past')).waitFor()

    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(stamp)
    await onlySearched(page, stamp)
    await screenshot(page, 'settings-companies.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))
    await page.reload()
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(stamp)
    await row(page, 'Companies', name('Ten past')).waitFor()

    // Renew: a month from today (the due date had passed), the red tint goes.
    await page.getByRole('button', { name: `Renew ${name('Ten past')}` }).click()
    await page.getByRole('dialog', { name: 'Renew company' }).getByRole('button', { name: 'Renew' }).click()
    await page.getByText(/^Company renewed until \d\d\/\d\d\/\d{4}\.$/).waitFor()
    await page.waitForFunction((text) => {
      const tr = [...document.querySelectorAll('table[aria-label="Companies"] tbody tr')].find((candidate) => candidate.textContent?.includes(text))
      return tr !== undefined && !tr.className.includes('company-due')
    }, name('Ten past'))

    // Edit: inactive, and no due date (empty becomes null, §5).
    await page.getByRole('button', { name: `Edit ${name('Two days')}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit company' })
    expect(await edit.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(name('Two days'))
    await edit.getByText('Active', { exact: true }).click()
    await edit.getByLabel('Due date').fill('')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Company saved.').waitFor()
    const twoDays = row(page, 'Companies', name('Two days'))
    await twoDays.getByText('Inactive').waitFor()
    await twoDays.getByText('No due date').waitFor()
    const [edited] = await harness.context.db.select().from(companies).where(eq(companies.name, name('Two days')))
    expect(edited).toMatchObject({ status: false, dueDate: null })

    // Delete, confirmed.
    await page.getByRole('button', { name: `Delete ${name('Far away')}` }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete company' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Company deleted.').waitFor()
    await row(page, 'Companies', name('Far away')).waitFor({ state: 'detached' })
    expect(await harness.context.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name('Far away')))).toEqual([])

    // A plan in use cannot be deleted: the server's refusal is shown and the row stays.
    await page.getByRole('tab', { name: 'Plans' }).click()
    await page.getByRole('button', { name: `Delete ${plan.name}` }).click()
    await page.getByRole('dialog', { name: 'Delete plan' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText('This plan is used by companies and cannot be deleted.').waitFor()
    await page.getByRole('dialog', { name: 'Delete plan' }).getByRole('button', { name: 'Cancel' }).click()
    await row(page, 'Plans', plan.name).waitFor()

    // pt spot-check of the companies tab.
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.goto('/settings?tab=companies')
    await page.getByRole('heading', { name: 'Configurações', level: 1 }).waitFor()
    await page.getByRole('columnheader', { name: 'Plano', exact: true }).waitFor()
    await page.evaluate(() => localStorage.setItem('language', 'en'))

    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('help videos: add (checked), edit and delete', async () => {
    const platform = await makeSuper(harness.context)
    const title = `Getting started ${Date.now().toString(36)}`
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, platform.user, '/settings?tab=helps')
    await page.getByRole('button', { name: 'Add help video' }).click()
    const dialog = page.getByRole('dialog', { name: 'New help video' })
    await dialog.getByRole('textbox', { name: 'Title' }).fill('G')
    await dialog.getByRole('textbox', { name: 'Video code' }).fill('not a video')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a title of 2 to 100 characters.').waitFor()
    await dialog.getByText('Enter a YouTube video code (11 characters) or an http(s) address, or leave it empty.').waitFor()
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title)
    await dialog.getByRole('textbox', { name: 'Video code' }).fill('dQw4w9WgXcQ')
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Connect your number and answer your first ticket.')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Help video created.').waitFor()
    await row(page, 'Help videos', title).getByText('dQw4w9WgXcQ').waitFor()

    await page.getByRole('button', { name: `Edit ${title}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit help video' })
    await edit.getByRole('textbox', { name: 'Description' }).fill('Connect, then answer.')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Help video saved.').waitFor()
    await row(page, 'Help videos', title).getByText('Connect, then answer.').waitFor()

    await page.getByRole('button', { name: `Delete ${title}` }).click()
    await page.getByRole('dialog', { name: 'Delete help video' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Help video deleted.').waitFor()
    await row(page, 'Help videos', title).waitFor({ state: 'detached' })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})
