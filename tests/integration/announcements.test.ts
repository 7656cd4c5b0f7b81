// Announcements (§7 "Announcements"): super users write them (with a png/jpg image), everyone reads the
// active ones; live on the unprefixed `company-announcement` channel and the super users' list channel.
import { afterEach, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeSuper, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { fence, nextOn } from '../helpers/live.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

// A small upload cap, so that the oversized image is cheap to build.
const context = await createTestContext({ config: { media: { ...loadConfig().media, maxBytes: 64 * 1024 } } })
const baseUrl = context.listen()
const platform = await makeSuper(context)
const tenant = await makeTenant(context)

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

const opened: TestSocket[] = []
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close()
})

function upload(id: number, file: File) {
  const form = new FormData()
  form.append('file', file)
  form.append('typeArch', 'announcements')
  return context.app.handle(new Request(`http://localhost/api/announcements/${id}/media-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${platform.token}` } }))
}

describe('announcements', () => {
  test('a super user creates one with defaults; agents see only active ones, most urgent first', async () => {
    const created = await platform.client.api.announcements.post({ title: ' Maintenance ', text: 'Tonight at 22:00' })
    expect(created.status).toBe(200)
    expect(created.data).toMatchObject({ title: 'Maintenance', priority: 3, status: true, mediaPath: null, mediaUrl: null })
    const urgent = (await platform.client.api.announcements.post({ title: 'Outage', text: 'Connections down', priority: 1 })).data!
    const hidden = (await platform.client.api.announcements.post({ title: 'Draft', text: 'Not yet', priority: 1, status: false })).data!

    const agentView = await tenant.asAgent.api.announcements.get({ query: {} })
    const unslashed = await context.app.handle(new Request('http://localhost/api/announcements?pageNumber=1', { headers: { authorization: `Bearer ${tenant.agentToken}` } }))
    expect(unslashed.status).toBe(200)
    const agentIds = agentView.data!.records.map((record) => record.id)
    expect(agentIds.indexOf(urgent.id)).toBeLessThan(agentIds.indexOf(created.data!.id))
    expect(agentIds).not.toContain(hidden.id)
    expect(errorOf(await tenant.asAgent.api.announcements({ id: hidden.id }).get())).toEqual({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' })
    const superView = await platform.client.api.announcements.get({ query: { searchParam: 'draft' } })
    expect(superView.data!.records.map((record) => record.id)).toEqual([hidden.id])

    const edited = await platform.client.api.announcements({ id: hidden.id }).put({ status: true, priority: 2 })
    expect(edited.data).toMatchObject({ status: true, priority: 2, title: 'Draft' })
    expect((await tenant.asAgent.api.announcements({ id: hidden.id }).get()).status).toBe(200)
    expect((await platform.client.api.announcements({ id: hidden.id }).delete()).status).toBe(200)
    expect(errorOf(await platform.client.api.announcements({ id: hidden.id }).get())).toEqual({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' })
  })

  test('only super users write: admins and agents are refused', async () => {
    const record = (await platform.client.api.announcements.post({ title: 'Mine', text: 'Only mine' })).data!
    expect(errorOf(await tenant.asAdmin.api.announcements.post({ title: 'Hack', text: 'Hack' }))).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await tenant.asAgent.api.announcements({ id: record.id }).put({ title: 'Hack' })).status).toBe(403)
    expect((await tenant.asAdmin.api.announcements({ id: record.id }).delete()).status).toBe(403)
    const form = new FormData()
    form.append('file', new File([png], 'a.png', { type: 'image/png' }))
    const agentUpload = await context.app.handle(
      new Request(`http://localhost/api/announcements/${record.id}/media-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tenant.adminToken}` } }),
    )
    expect(agentUpload.status).toBe(403)
    expect((await tenant.asAdmin.api.announcements({ id: record.id })['media-upload'].delete()).status).toBe(403)
  })

  test('bad input: missing or blank fields, a priority out of range, an unknown id', async () => {
    // @ts-expect-error: text is missing
    const noText = await platform.client.api.announcements.post({ title: 'Only a title' })
    expect(noText.status).toBe(422)
    expect(fieldsOf(noText)).toContain('text')
    const blank = await platform.client.api.announcements.post({ title: '   ', text: 'x' })
    expect(fieldsOf(blank)).toContain('title')
    // @ts-expect-error: 4 is no priority
    const badPriority = await platform.client.api.announcements.post({ title: 'T', text: 'x', priority: 4 })
    expect(badPriority.status).toBe(422)
    expect(fieldsOf(badPriority)).toContain('priority')
    expect(errorOf(await platform.client.api.announcements({ id: 2_000_000_000 }).put({ title: 'x' }))).toEqual({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' })
    const badId = await context.app.handle(new Request('http://localhost/api/announcements/x1', { headers: { authorization: `Bearer ${platform.token}` } }))
    expect(badId.status).toBe(422)
  })

  test('the image: png accepted and served signed, other types and oversized files refused, then removed', async () => {
    const record = (await platform.client.api.announcements.post({ title: 'With image', text: 'See the picture' })).data!
    const accepted = await upload(record.id, new File([png], 'my banner.png', { type: 'image/png' }))
    expect(accepted.status).toBe(200)
    const withImage = (await accepted.json()) as { mediaName: string; mediaUrl: string; mediaPath: string }
    expect(withImage.mediaName).toBe('my_banner.png')
    const served = await context.app.handle(new Request(new URL(withImage.mediaUrl, 'http://localhost')))
    expect(served.status).toBe(200)
    // A Whaticket-family client shows it from /public/{mediaPath}, unsigned (§7): served while the
    // announcement is active, refused once it is not (a review found it refused always).
    const bare = () => context.app.handle(new Request(`http://localhost/public/${withImage.mediaPath}`))
    const unsigned = await bare()
    expect(unsigned.status).toBe(200)
    expect(unsigned.headers.get('content-type')).toBe('image/png')
    expect((await platform.client.api.announcements({ id: record.id }).put({ status: false })).status).toBe(200)
    expect((await bare()).status).toBe(403)
    expect((await context.app.handle(new Request(new URL(withImage.mediaUrl, 'http://localhost')))).status).toBe(200)
    expect((await platform.client.api.announcements({ id: record.id }).put({ status: true })).status).toBe(200)

    // An HTML page named .png is not an image; a PDF is not allowed here; too big is 413.
    expect((await upload(record.id, new File(['<html>hi</html>'], 'x.png', { type: 'image/png' }))).status).toBe(415)
    expect((await upload(record.id, new File(['%PDF-1.4\n%\u00e2\u00e3'], 'x.pdf', { type: 'application/pdf' }))).status).toBe(415)
    const huge = new Uint8Array(70 * 1024)
    huge.set(png)
    expect((await upload(record.id, new File([huge], 'huge.png', { type: 'image/png' }))).status).toBe(413)

    const detached = await platform.client.api.announcements({ id: record.id })['media-upload'].delete()
    expect(detached.data).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null })
    // The signed link dies with the attachment, and so does the bare path.
    expect((await context.app.handle(new Request(new URL(withImage.mediaUrl, 'http://localhost')))).status).toBe(404)
    expect((await bare()).status).toBe(403)
  })

  test('live: everyone hears active ones on company-announcement, the list channel is for super users', async () => {
    const agentSocket = await openSocket(baseUrl, tenant.agentToken)
    const superSocket = await openSocket(baseUrl, platform.token)
    opened.push(agentSocket, superSocket)
    const created = (await platform.client.api.announcements.post({ title: 'Live news', text: 'Hello everyone', priority: 1 })).data!
    const heard = await nextOn(agentSocket, 'company-announcement', (data) => data.action === 'create')
    expect(heard.data).toMatchObject({ action: 'create', record: { id: created.id, title: 'Live news', priority: 1 } })
    await nextOn(superSocket, `company-${platform.company.id}-announcement`, (data) => data.action === 'create')

    // Made inactive: gone from everyone's popover.
    await platform.client.api.announcements({ id: created.id }).put({ status: false })
    await nextOn(agentSocket, 'company-announcement', (data) => data.action === 'delete' && data.id === created.id)
    await nextOn(superSocket, `company-${platform.company.id}-announcement`, (data) => data.action === 'update')
    await fence(context, agentSocket, { companyId: tenant.company.id, userId: tenant.agent.id })
    expect(agentSocket.frames.filter((frame) => frame.channel === `company-${tenant.company.id}-announcement`)).toEqual([])
  })
})
