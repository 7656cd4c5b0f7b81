// Realtime after an outage in the browser (issue 11, item 11): when the server says frames were lost
// (`company-<id>-resync`: Redis was out while the socket stayed open, or the client is too far behind),
// the ticket list loads again and shows what changed meanwhile.
import { expect, test } from 'bun:test'
import { userQueues } from '../../db/schema/index.ts'
import { makeContact, makeQueue, makeTenant, makeTicket } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()

describeInBrowser('the inbox after lost frames', () => {
  test('a resync frame makes the ticket list load again', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const queue = await makeQueue(harness.context.db, { companyId, name: 'Support' })
    await harness.context.db.insert(userQueues).values({ userId: tenant.admin.id, queueId: queue.id, companyId })
    const first = await makeContact(harness.context.db, { companyId, name: 'Elisa Before' })
    await makeTicket(harness.context.db, { companyId, contactId: first.id, queueId: queue.id, status: 'pending' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, tenant.admin)
    await page.getByRole('tab', { name: /^Pending 1$/ }).waitFor()

    // A ticket whose frame was lost: written without an event, as if its frame died with Redis.
    const second = await makeContact(harness.context.db, { companyId, name: 'Fabio Meanwhile' })
    await makeTicket(harness.context.db, { companyId, contactId: second.id, queueId: queue.id, status: 'pending' })
    await Bun.sleep(300)
    expect(await page.getByRole('tab', { name: /^Pending 1$/ }).count()).toBe(1)

    harness.context.deps.realtime.publish({ companyId, channel: 'resync', data: { reason: 'outage' }, audience: { kind: 'company' } })
    await page.getByRole('tab', { name: /^Pending 2$/ }).waitFor()
    await page.getByRole('tab', { name: /^Pending/ }).click()
    await page.getByRole('grid', { name: 'Pending tickets' }).getByRole('row').filter({ hasText: 'Fabio Meanwhile' }).waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
