// Administration lists updating live, in two browsers at once (README "Realtime"): two admins of one
// company edit a queue's option tree (one's change shows in the other's editor, and waits while the
// other is editing an option, without losing what he typed) and the settings (a switch and the hours
// tab follow the other admin's choice); and a help video a super user adds appears on an agent's /helps.
import { expect, test } from 'bun:test'
import type { Locator, Page } from 'playwright-core'
import { makeQueue, makeSuper, makeTenant, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()

/** Resolves once the page's socket is up (its ready frame arrived): a change made after it reaches the page. */
function socketReady(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"event":"ready"')) resolve()
      })
    })
  })
}

/** A signed-in browser of its own (each user signs in once: a second sign-in would end the first session). */
async function browserOf(user: { email: string; password: string }) {
  const opened = await openPage(harness)
  await signInThroughForm(opened.page, user)
  return opened
}

/** Opens a page and waits until its socket is ready. */
async function visit(page: Page, path: string): Promise<void> {
  const ready = socketReady(page)
  await page.goto(path)
  await ready
}

/** The option titles as the editor lists them, depth first. */
const optionTitles = (dialog: Locator) => dialog.locator('.queue-option-title').allInnerTexts()

async function waitForTitles(dialog: Locator, titles: string[]): Promise<void> {
  await dialog.page().waitForFunction(
    ([selector, expected]) => {
      const shown = [...document.querySelectorAll(`${selector} .queue-option-title`)].map((element) => element.textContent)
      return JSON.stringify(shown) === expected
    },
    ['[role="dialog"]', JSON.stringify(titles)] as const,
  )
  expect(await optionTitles(dialog)).toEqual(titles)
}

/** The queue's edit dialog, on its chatbot options tab. */
async function openOptions(page: Page, queueName: string): Promise<Locator> {
  await page.getByRole('row').filter({ has: page.getByRole('cell', { name: queueName, exact: true }) }).getByRole('button', { name: `Edit ${queueName}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit queue' })
  await dialog.getByRole('tab', { name: 'Chatbot options' }).click()
  return dialog
}

describeInBrowser('live administration lists', () => {
  test("a queue's option tree: one admin's changes appear in the other's editor, after his own edit when he is editing", async () => {
    const tenant = await makeTenant(harness.context)
    const other = await makeUser(harness.context.db, { companyId: tenant.company.id, profile: 'admin' })
    const queue = await makeQueue(harness.context.db, { companyId: tenant.company.id, name: 'Atendimento' })
    const seeded = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, title: 'Vendas', message: 'Vendas: escolha' })
    expect(seeded.status).toBe(200)

    const first = await browserOf(tenant.admin)
    const second = await browserOf(other)
    await visit(first.page, '/queues')
    await visit(second.page, '/queues')
    const firstEditor = await openOptions(first.page, 'Atendimento')
    const secondEditor = await openOptions(second.page, 'Atendimento')
    await waitForTitles(firstEditor, ['Vendas'])
    await waitForTitles(secondEditor, ['Vendas'])

    // The first admin adds a root option and a sub-option: the second sees both without reloading.
    await firstEditor.getByRole('button', { name: 'Add option', exact: true }).click()
    const newOption = firstEditor.getByRole('form', { name: 'New option' })
    await newOption.getByRole('textbox', { name: 'Option title' }).fill('Suporte')
    await newOption.getByRole('button', { name: 'Save option' }).click()
    await newOption.waitFor({ state: 'detached' })
    await waitForTitles(secondEditor, ['Vendas', 'Suporte'])
    await firstEditor.getByRole('button', { name: 'Add a sub-option to Vendas', exact: true }).click()
    const child = firstEditor.getByRole('form', { name: 'New sub-option of Vendas' })
    await child.getByRole('textbox', { name: 'Option title' }).fill('Usados')
    await child.getByRole('button', { name: 'Save option' }).click()
    await child.waitFor({ state: 'detached' })
    await waitForTitles(secondEditor, ['Vendas', 'Usados', 'Suporte'])
    // Its own changes never show the first admin the "changed elsewhere" notice.
    expect(await firstEditor.locator('.live-notice').count()).toBe(0)

    // The second admin is editing Vendas when the first deletes Suporte: his typing stays, a notice says
    // the menu changed, and the tree is read again once he saves.
    await secondEditor.getByRole('button', { name: 'Edit Vendas' }).click()
    const editForm = secondEditor.getByRole('form', { name: 'Edit Vendas' })
    await editForm.getByRole('textbox', { name: 'Option title' }).fill('Vendas e trocas')
    await firstEditor.getByRole('button', { name: 'Delete Suporte' }).click()
    await first.page.getByRole('dialog', { name: 'Delete option' }).getByRole('button', { name: 'Delete' }).click()
    await waitForTitles(firstEditor, ['Vendas', 'Usados'])
    await secondEditor.getByText('Another admin changed these options. They are shown as soon as you finish here.').waitFor()
    expect(await editForm.getByRole('textbox', { name: 'Option title' }).inputValue()).toBe('Vendas e trocas')
    // Not applied yet: the form's row is still where it was.
    expect(await optionTitles(secondEditor)).toEqual(['Usados', 'Suporte'])
    await editForm.getByRole('button', { name: 'Save option' }).click()
    await editForm.waitFor({ state: 'detached' })
    await waitForTitles(secondEditor, ['Vendas e trocas', 'Usados'])
    expect(await secondEditor.locator('.live-notice').count()).toBe(0)
    // ... and the second admin's save reaches the first.
    await waitForTitles(firstEditor, ['Vendas e trocas', 'Usados'])

    expect(unexpectedErrors(first.problems)).toEqual([])
    expect(unexpectedErrors(second.problems)).toEqual([])
    await first.browserContext.close()
    await second.browserContext.close()
  }, E2E_TIMEOUT * 3)

  test("settings: another admin's switch and business-hours choice arrive live", async () => {
    const tenant = await makeTenant(harness.context)
    const other = await makeUser(harness.context.db, { companyId: tenant.company.id, profile: 'admin' })
    const first = await browserOf(tenant.admin)
    const second = await browserOf(other)
    await visit(first.page, '/settings')
    await visit(second.page, '/settings')
    const rating = second.page.getByRole('switch', { name: 'Attendance rating' })
    await rating.waitFor()
    expect(await rating.isChecked()).toBe(false)

    // The switch's input is visually hidden: a person presses its label.
    await first.page.getByText('Attendance rating', { exact: true }).click()
    await expectChecked(rating, true)
    await first.page.getByText('Attendance rating', { exact: true }).click()
    await expectChecked(rating, false)

    // Hours per company: the second admin's page offers the hours tab at once.
    expect(await second.page.getByRole('tab').allInnerTexts()).toEqual(['Options'])
    await first.page.getByRole('button', { name: /Business hours/ }).click()
    await first.page.getByRole('option', { name: 'Per company' }).click()
    await second.page.getByRole('tab', { name: 'Hours' }).waitFor()
    await second.page.getByRole('button', { name: /Business hours/ }).getByText('Per company').waitFor()

    expect(unexpectedErrors(first.problems)).toEqual([])
    expect(unexpectedErrors(second.problems)).toEqual([])
    await first.browserContext.close()
    await second.browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('a help video a super user publishes appears on an agent\'s help page', async () => {
    const tenant = await makeTenant(harness.context)
    const platform = await makeSuper(harness.context)
    const agent = await browserOf(tenant.agent)
    await visit(agent.page, '/helps')
    await agent.page.getByRole('heading', { name: 'Help', level: 1 }).waitFor()

    const title = `Live help ${crypto.randomUUID().slice(0, 6)}`
    const created = await platform.client.api.helps.post({ title, description: 'Published while you watch' })
    expect(created.status).toBe(200)
    const grid = agent.page.getByRole('list', { name: 'Help videos' })
    await grid.getByText(title).waitFor()
    await platform.client.api.helps({ id: created.data!.id }).delete()
    await grid.getByText(title).waitFor({ state: 'detached' })

    expect(unexpectedErrors(agent.problems)).toEqual([])
    await agent.browserContext.close()
  }, E2E_TIMEOUT)
})

/** A switch reaches the state (it changes when the frame arrives, so it is waited for). */
async function expectChecked(control: Locator, checked: boolean): Promise<void> {
  const handle = await control.elementHandle()
  await control.page().waitForFunction(([element, wanted]) => (element as HTMLInputElement).checked === wanted, [handle, checked] as const)
  expect(await control.isChecked()).toBe(checked)
}
