import { describe, expect, test } from 'bun:test'
import {
  decodeEnginePacket,
  decodeSocketIoPacket,
  encodeAck,
  encodeConnected,
  encodeConnectError,
  encodeDisconnect,
  encodeEvent,
  encodeOpen,
} from './socket-io-protocol.ts'

describe('Engine.IO packets', () => {
  test('the open packet carries the handshake, with no upgrade offered', () => {
    const text = encodeOpen({ sid: 'abc', pingInterval: 18000, pingTimeout: 18000, maxPayload: 16384 })
    expect(text.charAt(0)).toBe('0')
    expect(JSON.parse(text.slice(1))).toEqual({ sid: 'abc', upgrades: [], pingInterval: 18000, pingTimeout: 18000, maxPayload: 16384 })
  })

  test('decodes the type digit and keeps the rest as data', () => {
    expect(decodeEnginePacket('3')).toEqual({ type: 'pong', data: '' })
    expect(decodeEnginePacket('2probe')).toEqual({ type: 'ping', data: 'probe' })
    expect(decodeEnginePacket('1')).toEqual({ type: 'close', data: '' })
    expect(decodeEnginePacket('42["joinTickets","open"]')).toEqual({ type: 'message', data: '2["joinTickets","open"]' })
  })

  test('refuses what is no packet', () => {
    expect(decodeEnginePacket('')).toBeUndefined()
    expect(decodeEnginePacket('9')).toBeUndefined()
    expect(decodeEnginePacket('{"event":"joinTickets"}')).toBeUndefined()
  })
})

describe('Socket.IO packets', () => {
  test('connect, bare or with an auth payload, on the main namespace or another', () => {
    expect(decodeSocketIoPacket('0')).toEqual({ type: 'connect', namespace: '/', data: undefined })
    expect(decodeSocketIoPacket('0{"token":"t"}')).toEqual({ type: 'connect', namespace: '/', data: { token: 't' } })
    expect(decodeSocketIoPacket('0/admin,{"token":"t"}')).toEqual({ type: 'connect', namespace: '/admin', data: { token: 't' } })
    expect(decodeSocketIoPacket('0/admin,')).toEqual({ type: 'connect', namespace: '/admin', data: undefined })
    // An auth payload is an object: anything else is malformed.
    expect(decodeSocketIoPacket('0"token"')).toBeUndefined()
    expect(decodeSocketIoPacket('0{broken')).toBeUndefined()
  })

  test('disconnect', () => {
    expect(decodeSocketIoPacket('1')).toEqual({ type: 'disconnect', namespace: '/' })
    expect(decodeSocketIoPacket('1/admin,')).toEqual({ type: 'disconnect', namespace: '/admin' })
  })

  test('events, with their arguments and ack id', () => {
    expect(decodeSocketIoPacket('2["joinNotification"]')).toEqual({ type: 'event', namespace: '/', name: 'joinNotification', args: [] })
    expect(decodeSocketIoPacket('2["joinChatBox","42"]')).toEqual({ type: 'event', namespace: '/', name: 'joinChatBox', args: ['42'] })
    expect(decodeSocketIoPacket('212["joinTickets","open"]')).toEqual({ type: 'event', namespace: '/', ackId: 12, name: 'joinTickets', args: ['open'] })
    expect(decodeSocketIoPacket('2/admin,7["x",{"a":1},2]')).toEqual({ type: 'event', namespace: '/admin', ackId: 7, name: 'x', args: [{ a: 1 }, 2] })
  })

  test('an event must be an array led by its name', () => {
    expect(decodeSocketIoPacket('2')).toBeUndefined()
    expect(decodeSocketIoPacket('2[]')).toBeUndefined()
    expect(decodeSocketIoPacket('2[1,2]')).toBeUndefined()
    expect(decodeSocketIoPacket('2{"name":"x"}')).toBeUndefined()
    expect(decodeSocketIoPacket('2["x"')).toBeUndefined()
    expect(decodeSocketIoPacket('299999999999999999999["x"]')).toBeUndefined()
  })

  test('acks from the client, binary packets recognised (to be ignored), unknown types refused', () => {
    expect(decodeSocketIoPacket('35[{"ok":true}]')).toEqual({ type: 'ack', namespace: '/', ackId: 5, args: [{ ok: true }] })
    expect(decodeSocketIoPacket('3[1]')).toBeUndefined()
    expect(decodeSocketIoPacket('51-["upload",{"_placeholder":true,"num":0}]')).toEqual({ type: 'binary', namespace: '/' })
    expect(decodeSocketIoPacket('5["upload"]')).toBeUndefined()
    expect(decodeSocketIoPacket('7')).toBeUndefined()
    expect(decodeSocketIoPacket('')).toBeUndefined()
  })

  test('what the server writes', () => {
    expect(encodeConnected('sid1')).toBe('40{"sid":"sid1"}')
    expect(encodeConnectError('ERR_SESSION_EXPIRED', { error: 'ERR_SESSION_EXPIRED' })).toBe('44{"message":"ERR_SESSION_EXPIRED","data":{"error":"ERR_SESSION_EXPIRED"}}')
    expect(encodeConnectError('Invalid namespace', undefined, '/admin')).toBe('44/admin,{"message":"Invalid namespace"}')
    expect(encodeDisconnect()).toBe('41')
    expect(encodeEvent('company-7-ticket', { action: 'delete', ticketId: 3 })).toBe('42["company-7-ticket",{"action":"delete","ticketId":3}]')
    expect(encodeAck(12, [{ ok: true }])).toBe('4312[{"ok":true}]')
  })

  test('an event the server writes reads back as the same event', () => {
    const text = encodeEvent('company-7-appMessage', { action: 'create', message: { body: 'olá "quoted"' } })
    const engine = decodeEnginePacket(text)
    expect(engine?.type).toBe('message')
    expect(decodeSocketIoPacket(engine!.data)).toEqual({ type: 'event', namespace: '/', name: 'company-7-appMessage', args: [{ action: 'create', message: { body: 'olá "quoted"' } }] })
  })
})
