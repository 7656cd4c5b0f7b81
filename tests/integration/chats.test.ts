// Internal chat (§7 "Internal chat"): members only, owner-only edit and delete, unread counts, the plan
// gate, another company's ids, and the frames on `chat` and `chat-user-<id>` over a real websocket.
import { afterEach, describe, expect, test } from 'bun:test'
import { chatMessages } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makePlan, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { fence, framesOf, nextOn } from '../helpers/live.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

const opened: TestSocket[] = []
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close()
})

/** A company with an admin, an agent and a third user who is in no chat, all signed in. */
async function makeTeam() {
  const tenant = await makeTenant(context)
  const outsider = await makeUser(context.db, { companyId: tenant.company.id })
  const outsiderToken = (await signIn(context, outsider)).token
  return { ...tenant, outsider, outsiderToken, asOutsider: context.as(outsiderToken) }
}

// One team and one other company for the whole file (signing in is slow on purpose); each test makes its own chats.
const team = await makeTeam()
const other = await makeTenant(context)

describe('chats', () => {
  test('create, list, write, unread counts and read, with the owner always a member', async () => {
    const created = await team.asAdmin.api.chats.post({ title: '  Shift handover ', users: [{ id: team.agent.id }] })
    expect(created.status).toBe(200)
    const chat = created.data!
    expect(chat).toMatchObject({ title: 'Shift handover', ownerId: team.admin.id, lastMessage: '' })
    expect(chat.users.map((member) => member.userId).sort()).toEqual([team.admin.id, team.agent.id].sort())
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/)

    const sent = await team.asAdmin.api.chats({ id: chat.id }).messages.post({ message: 'Hello there' })
    expect(sent.status).toBe(200)
    expect(sent.data).toMatchObject({ chatId: chat.id, senderId: team.admin.id, sender: { id: team.admin.id, name: team.admin.name }, message: 'Hello there' })

    const agentList = await team.asAgent.api.chats.get({ query: { searchParam: 'handover' } })
    expect(agentList.data).toMatchObject({ count: 1, hasMore: false })
    const listed = agentList.data!.records[0]!
    expect(listed.lastMessage).toBe('Hello there')
    const unreads = Object.fromEntries(listed.users.map((member) => [member.userId, member.unreads]))
    expect(unreads).toEqual({ [team.admin.id]: 0, [team.agent.id]: 1 })
    // Someone in no chat sees none.
    expect((await team.asOutsider.api.chats.get({ query: { searchParam: 'handover' } })).data).toMatchObject({ records: [], count: 0 })

    // The paths as a Whaticket-family client writes them (a trailing slash), and its user objects with more fields.
    const slashed = await context.app.handle(new Request('http://localhost/api/chats/?pageNumber=1', { headers: { authorization: `Bearer ${team.agentToken}` } }))
    expect(slashed.status).toBe(200)
    const withNames = await team.asAgent.api.chats.post({ title: 'From the select', users: [{ id: team.admin.id, name: team.admin.name } as { id: number }] })
    expect(withNames.data!.users.map((member) => member.userId).sort()).toEqual([team.admin.id, team.agent.id].sort())
    await team.asAgent.api.chats({ id: withNames.data!.id }).delete()

    // By uuid too (the page's /chats/:uuid).
    const byUuid = await team.asAgent.api.chats({ id: chat.uuid }).get()
    expect(byUuid.data!.id).toBe(chat.id)

    const read = await team.asAgent.api.chats({ id: chat.id }).read.post({ userId: team.agent.id })
    expect(read.status).toBe(200)
    expect(read.data!.users.find((member) => member.userId === team.agent.id)!.unreads).toBe(0)
    // Nobody marks another member's reading.
    const forOther = await team.asAgent.api.chats({ id: chat.id }).read.post({ userId: team.admin.id })
    expect(forOther.status).toBe(403)
  })

  test('messages page 20 from the newest, each page oldest first', async () => {
    const chat = (await team.asAdmin.api.chats.post({ title: 'Paging', users: [team.agent.id] })).data!
    // Written straight to the table, a second apart: the order is the point, not the sending.
    const start = Date.now() - 60_000
    await context.db.insert(chatMessages).values(
      Array.from({ length: 23 }, (_, index) => ({ companyId: team.company.id, chatId: chat.id, senderId: team.admin.id, message: `m${index + 1}`, createdAt: new Date(start + index * 1000) })),
    )
    const first = await team.asAgent.api.chats({ id: chat.id }).messages.get({ query: {} })
    expect(first.data!.records.map((message) => message.message)).toEqual(Array.from({ length: 20 }, (_, index) => `m${index + 4}`))
    expect(first.data).toMatchObject({ count: 23, hasMore: true })
    const second = await team.asAgent.api.chats({ id: chat.id }).messages.get({ query: { pageNumber: 2 } })
    expect(second.data!.records.map((message) => message.message)).toEqual(['m1', 'm2', 'm3'])
    expect(second.data!.hasMore).toBe(false)
  })

  test('bad input is refused with the field at fault, never a 500', async () => {
    const noUsers = await team.asAdmin.api.chats.post({ title: 'Alone', users: [] })
    expect(noUsers.status).toBe(422)
    expect(fieldsOf(noUsers)).toContain('users')
    const blankTitle = await team.asAdmin.api.chats.post({ title: '   ', users: [team.agent.id] })
    expect(blankTitle.status).toBe(422)
    expect(fieldsOf(blankTitle)).toContain('title')
    // @ts-expect-error: the title is missing
    const noTitle = await team.asAdmin.api.chats.post({ users: [team.agent.id] })
    expect(noTitle.status).toBe(422)
    const chat = (await team.asAdmin.api.chats.post({ title: 'Input', users: [team.agent.id] })).data!
    const blank = await team.asAdmin.api.chats({ id: chat.id }).messages.post({ message: '  \n ' })
    expect(blank.status).toBe(422)
    expect(fieldsOf(blank)).toContain('message')
    const badId = await context.app.handle(new Request('http://localhost/api/chats/abc/messages', { headers: { authorization: `Bearer ${team.adminToken}` } }))
    expect(badId.status).toBe(422)
    const badRef = await team.asAdmin.api.chats({ id: 'not-a-uuid' }).get()
    expect(badRef.status).toBe(422)
    const unknown = await team.asAdmin.api.chats({ id: 2_000_000_000 }).messages.get({ query: {} })
    expect(errorOf(unknown)).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
  })

  test('a colleague who is not a member reads and writes nothing; only the owner edits and deletes', async () => {
    const chat = (await team.asAdmin.api.chats.post({ title: 'Private', users: [team.agent.id] })).data!
    const chatApi = (client: typeof team.asAdmin) => client.api.chats({ id: chat.id })
    expect((await chatApi(team.asOutsider).messages.get({ query: {} })).status).toBe(403)
    expect((await chatApi(team.asOutsider).messages.post({ message: 'sneaking in' })).status).toBe(403)
    expect((await chatApi(team.asOutsider).read.post({ userId: team.outsider.id })).status).toBe(403)
    expect((await team.asOutsider.api.chats({ id: chat.uuid }).get()).status).toBe(403)
    // A member who is not the owner may write, not edit nor delete.
    const rename = await chatApi(team.asAgent).put({ title: 'Mine now' })
    expect(errorOf(rename)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await chatApi(team.asAgent).delete()).status).toBe(403)

    const renamed = await chatApi(team.asAdmin).put({ title: 'Renamed', users: [{ id: team.outsider.id }] })
    expect(renamed.status).toBe(200)
    // The owner stays; the agent was replaced by the outsider.
    expect(renamed.data!.users.map((member) => member.userId).sort()).toEqual([team.admin.id, team.outsider.id].sort())
    expect((await chatApi(team.asAgent).messages.get({ query: {} })).status).toBe(403)
    expect((await chatApi(team.asAdmin).delete()).status).toBe(200)
    expect(errorOf(await chatApi(team.asAdmin).messages.get({ query: {} }))).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
  })

  test("another company's chats and users do not exist", async () => {
    const foreign = (await other.asAdmin.api.chats.post({ title: 'Foreign', users: [other.agent.id] })).data!
    const foreignApi = team.asAdmin.api.chats({ id: foreign.id })
    expect(errorOf(await foreignApi.messages.get({ query: {} }))).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    expect(errorOf(await foreignApi.messages.post({ message: 'hi' }))).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    expect(errorOf(await foreignApi.put({ title: 'Taken' }))).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    expect(errorOf(await foreignApi.delete())).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    expect(errorOf(await foreignApi.read.post({ userId: team.admin.id }))).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    expect(errorOf(await team.asAdmin.api.chats({ id: foreign.uuid }).get())).toEqual({ error: 'ERR_NO_CHAT_FOUND' })
    // Nor can another company's user be added to a chat.
    const withForeignUser = await team.asAdmin.api.chats.post({ title: 'Mixed', users: [team.agent.id, other.agent.id] })
    expect(errorOf(withForeignUser)).toEqual({ error: 'ERR_NO_USER_FOUND' })
    expect((await other.asAgent.api.chats({ id: foreign.id }).messages.get({ query: {} })).data!.count).toBe(0)
  })

  test('a plan without useInternalChat refuses every chat route', async () => {
    const plan = await makePlan(context.db, { useInternalChat: false })
    const company = await makeCompany(context.db, { planId: plan.id })
    const admin = await makeUser(context.db, { companyId: company.id, profile: 'admin' })
    const asAdmin = context.as((await signIn(context, admin)).token)
    const list = await asAdmin.api.chats.get({ query: {} })
    expect(list.status).toBe(403)
    expect((await asAdmin.api.chats.post({ title: 'No', users: [admin.id] })).status).toBe(403)
  })

  test('frames reach the members only: chat-user on create, new-message and update (read) on chat', async () => {
    const agentSocket = await openSocket(baseUrl, team.agentToken)
    const outsiderSocket = await openSocket(baseUrl, team.outsiderToken)
    opened.push(agentSocket, outsiderSocket)
    const companyId = team.company.id
    const chat = (await team.asAdmin.api.chats.post({ title: 'Live', users: [team.agent.id] })).data!
    const createdFrame = await nextOn(agentSocket, `company-${companyId}-chat-user-${team.agent.id}`, (data) => data.action === 'create')
    expect(createdFrame.data).toMatchObject({ action: 'create', record: { id: chat.id, title: 'Live' } })

    await team.asAdmin.api.chats({ id: chat.id }).messages.post({ message: 'Ping' })
    const messageFrame = await nextOn(agentSocket, `company-${companyId}-chat`, (data) => data.action === 'new-message')
    const { newMessage, chat: withUnread } = messageFrame.data as { newMessage: { message: string }; chat: { users: { userId: number; unreads: number }[] } }
    expect(newMessage.message).toBe('Ping')
    expect(withUnread.users.find((member) => member.userId === team.agent.id)!.unreads).toBe(1)

    await team.asAgent.api.chats({ id: chat.id }).read.post({ userId: team.agent.id })
    const readFrame = await nextOn(agentSocket, `company-${companyId}-chat`, (data) => data.action === 'update')
    expect((readFrame.data as { chat: { users: { userId: number; unreads: number }[] } }).chat.users.every((member) => member.unreads === 0)).toBe(true)

    await team.asAdmin.api.chats({ id: chat.id }).delete()
    await nextOn(agentSocket, `company-${companyId}-chat`, (data) => data.action === 'delete' && data.id === chat.id)
    // The colleague outside the chat heard none of it.
    await fence(context, outsiderSocket, { companyId, userId: team.outsider.id })
    expect(outsiderSocket.frames.filter((frame) => frame.channel?.includes('-chat'))).toEqual([])
    expect(framesOf(outsiderSocket, `company-${companyId}-chat-user-${team.outsider.id}`)).toEqual([])
  })
})
