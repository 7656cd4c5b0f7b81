// File lists (§7 "Files"): CRUD, the multi-file upload (checked by bytes, capped, stored by
// core/storage, served by signed links), removal of files with their options, the `file` channel,
// permissions and another company's ids.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { fileOptions } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { captureRealtime, waitFor } from '../helpers/fake-whatsapp.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext({ config: { media: { ...(await import('../../src/config.ts')).loadConfig().media, maxBytes: 64 * 1024 } } })
const tenant = await makeTenant(context)
const other = await makeTenant(context)

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))
const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

const get = (path: string) => context.app.handle(new Request(`http://localhost${path}`))

async function makeFileList(name = 'Catalogue', message = 'Our catalogue') {
  const created = await tenant.asAdmin.api.files.post({ name, message })
  expect(created.status).toBe(200)
  return created.data!
}

describe('file lists', () => {
  test('create, upload several files, page, show, rename options, remove one (its file too), delete; live on `file`', async () => {
    const capture = captureRealtime(context)
    const list = await makeFileList('Price lists')
    expect(list).toMatchObject({ name: 'Price lists', message: 'Our catalogue', options: [], companyId: tenant.company.id })
    const upload = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({
      files: [new File([png], 'photo one.png', { type: 'image/png' }), new File([pdf], 'prices.pdf', { type: 'application/pdf' })],
      name: ['Photo', ''],
      mediaType: ['image', 'application'],
    })
    expect(upload.status).toBe(200)
    const [photo, prices] = upload.data!.options
    expect(photo).toMatchObject({ name: 'Photo', mediaType: 'image', fileId: list.id })
    expect(prices).toMatchObject({ name: 'prices.pdf', mediaType: 'application' })
    const served = await get(photo!.mediaUrl)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)

    const page = await tenant.asAgent.api.files.get({ query: { searchParam: 'price' } })
    expect(page.data!.files.map((file) => [file.name, file.options.length])).toEqual([['Price lists', 2]])
    expect(page.data).toMatchObject({ count: 1, hasMore: false })
    expect((await tenant.asAgent.api.files.list.get()).data!.map((file) => file.id)).toContain(list.id)

    const edited = await tenant.asAdmin.api.files({ id: list.id }).put({ name: 'Prices', options: [{ id: prices!.id, name: 'Table' }] })
    expect(edited.data).toMatchObject({ name: 'Prices', message: 'Our catalogue' })
    expect(edited.data!.options.map((option) => option.name)).toEqual(['Table'])
    // The photo's option went, and with it the file: its old link no longer serves it.
    expect((await get(photo!.mediaUrl)).status).toBe(404)

    // A file at the position of an option's id replaces that option's file.
    const replaced = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'new.png', { type: 'image/png' }), id: String(prices!.id) })
    expect(replaced.data!.options).toHaveLength(1)
    expect(replaced.data!.options[0]).toMatchObject({ id: prices!.id, mediaType: 'image' })
    expect((await get(prices!.mediaUrl)).status).toBe(404)

    expect((await tenant.asAdmin.api.files({ id: list.id }).delete()).data).toEqual({ ok: true })
    expect((await tenant.asAdmin.api.files({ id: list.id }).get()).status).toBe(404)
    expect((await get(replaced.data!.options[0]!.mediaUrl)).status).toBe(404)
    expect(await context.db.select().from(fileOptions).where(eq(fileOptions.fileId, list.id))).toEqual([])

    await waitFor(() => capture.on(tenant.company.id, 'file').length >= 5)
    const frames = capture.on(tenant.company.id, 'file').map((message) => message.data as { action: string; fileId?: number })
    expect(frames.map((frame) => frame.action)).toEqual(['create', 'update', 'update', 'update', 'delete'])
    expect(frames[4]).toEqual({ action: 'delete', fileId: list.id })
    capture.stop()
  })

  test('bad input: 422 with the field; a file of a refused type 415; over the per-file cap 413; nothing stored', async () => {
    const short = await tenant.asAdmin.api.files.post({ name: 'ab', message: '' })
    expect(short.status).toBe(422)
    expect(fieldsOf(short).sort()).toEqual(['message', 'name'])
    const list = await makeFileList()
    const noFiles = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({} as { files: File })
    expect(noFiles.status).toBe(422)
    const executable = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, ...new Array(300).fill(0)])], 'setup.exe', { type: 'application/octet-stream' })
    expect((await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: executable })).status).toBe(415)
    const big = new File([new Uint8Array(70 * 1024)], 'big.txt', { type: 'text/plain' })
    expect((await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: big })).status).toBe(413)
    const foreignOption = await tenant.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'a.png', { type: 'image/png' }), id: '999999' })
    expect(foreignOption.status).toBe(422)
    expect(fieldsOf(foreignOption)).toEqual(['id'])
    expect(await context.db.select().from(fileOptions).where(eq(fileOptions.fileId, list.id))).toEqual([])
  })

  test("agents read but do not write (403); another company's lists are not found (404) and stay unchanged", async () => {
    const list = await makeFileList('Owned')
    expect((await tenant.asAgent.api.files({ id: list.id }).get()).status).toBe(200)
    const agentWrite = await tenant.asAgent.api.files({ id: list.id }).put({ name: 'Agent' })
    expect(errorOf(agentWrite)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await tenant.asAgent.api.files.post({ name: 'Agent list', message: 'x' })).status).toBe(403)
    const foreign = other.asAdmin.api.files({ id: list.id })
    const answers = await Promise.all([foreign.get(), foreign.put({ name: 'Stolen' }), foreign.delete(), other.asAdmin.api.files.uploadList({ id: list.id }).post({ files: new File([png], 'x.png', { type: 'image/png' }) })])
    for (const answer of answers) expect(answer.status).toBe(404)
    const theirs = await other.asAdmin.api.files.get({ query: {} })
    expect(theirs.data!.files.some((file) => file.id === list.id)).toBe(false)
    // Only super users may name another company.
    expect((await other.asAdmin.api.files.get({ query: { companyId: tenant.company.id } })).status).toBe(403)
    expect((await tenant.asAdmin.api.files({ id: list.id }).get()).data!.name).toBe('Owned')
    expect((await context.api.api.files.get({ query: {} })).status).toBe(401)
  })
})
