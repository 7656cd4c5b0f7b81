import { describe, expect, test } from 'bun:test'
import type { Caller } from '../tenant.ts'
import { RealtimeHub, type FrameEncoder, type SocketPeer, type SocketViewer } from './hub.ts'

const visibility = {
  loadViewer: async (): Promise<SocketViewer> => ({ profile: 'admin', super: false }),
  canSeeTicket: () => true,
}

function caller(userId: number): Caller {
  return { userId, companyId: 7, profile: 'admin', super: false, name: 'x', sessionId: `s${userId}`, features: {} as Caller['features'], subscription: 'active', payOnly: false, dueDate: null }
}

function peer(encode?: FrameEncoder) {
  const sent: string[] = []
  const value: SocketPeer = { send: (text) => void sent.push(text), close: () => {}, ...(encode ? { encode } : {}) }
  return { sent, value }
}

describe('the hub writes each socket its own protocol', () => {
  test('JSON for /ws peers, the peer encoder otherwise; each encoded once per protocol', async () => {
    const hub = new RealtimeHub(visibility)
    let encoded = 0
    const eventEncoder: FrameEncoder = (frame) => (encoded++, `42${JSON.stringify([frame.channel, frame.data])}`)
    const [json, first, second] = [peer(), peer(eventEncoder), peer(eventEncoder)]
    await hub.add('a', caller(1), json.value)
    await hub.add('b', caller(2), first.value)
    await hub.add('c', caller(3), second.value)
    hub.deliver({ companyId: 7, channel: 'whatsapp', id: '1-1', data: { action: 'delete', whatsappId: 3 }, audience: { kind: 'company' } })
    hub.flush()
    expect(json.sent).toEqual(['{"channel":"company-7-whatsapp","id":"1-1","data":{"action":"delete","whatsappId":3}}'])
    expect(first.sent).toEqual(['42["company-7-whatsapp",{"action":"delete","whatsappId":3}]'])
    expect(second.sent).toEqual(first.sent)
    expect(encoded).toBe(1)
  })
})
