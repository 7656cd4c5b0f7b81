import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConnectionState, ProviderHandlers } from '../provider.ts'
import { simulatedNumberExists } from './adapter.ts'
import { mediaTypeOfMimetype, createSimulator } from './simulator.ts'

function recordingHandlers() {
  const states: ConnectionState[] = []
  const acks: { id: string; ack: number }[] = []
  const handlers: ProviderHandlers = {
    onState: (state) => void states.push(state),
    onMessage: () => {},
    onAck: (update) => void acks.push(update),
    onRevoke: () => {},
    onEdit: () => {},
    onContact: () => {},
    onCall: () => {},
    getMessage: async () => undefined,
  }
  return { handlers, states, acks }
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !check(); await Bun.sleep(5)) if (Date.now() - started > timeoutMs) throw new Error('timed out')
}

const fast = { qrDelayMs: 5, connectDelayMs: 20, ackDelayMs: 10 }

describe('the simulator adapter', () => {
  test('shows a QR, connects after the delay, and reconnects without a QR while paired', async () => {
    const simulator = createSimulator()
    simulator.configure(fast)
    const first = recordingHandlers()
    const provider = simulator.factory({ whatsappId: 1, companyId: 7, handlers: first.handlers })
    await provider.connect()
    await until(() => first.states.some((state) => state.status === 'CONNECTED'))
    expect(first.states.map((state) => state.status)).toEqual(['qrcode', 'CONNECTED'])
    expect(first.states[0]!.qrcode).toStartWith('2@SIMULATOR-1-')
    expect(first.states[1]!.number).toBe('5511900000001')
    await provider.disconnect()
    expect(first.states.at(-1)).toEqual({ status: 'DISCONNECTED' })
    await provider.connect()
    await until(() => first.states.at(-1)!.status === 'CONNECTED')
    expect(first.states.slice(3).map((state) => state.status)).toEqual(['CONNECTED'])
    await provider.logout()
    expect(first.states.at(-1)).toEqual({ status: 'DISCONNECTED', loggedOut: true })
    await provider.connect({ pairingPhone: '5511999990001' })
    await until(() => first.states.at(-1)!.status === 'CONNECTED')
    expect(first.states.at(-2)).toMatchObject({ status: 'PAIRING', pairingCode: expect.stringMatching(/^[0-9A-F]{8}$/) })
  })

  test('processes sharing an outbox journal: the one adopting a connection knows what the previous owner sent', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'zapdesk-simulator-journal-'))
    try {
      const outboxFile = join(directory, 'outbox.jsonl')
      // Both "processes" open the journal first; then the first owner sends and dies.
      const [dead, adopter] = [createSimulator({ outboxFile }), createSimulator({ outboxFile })]
      for (const simulator of [dead, adopter]) simulator.configure(fast)
      const owner = dead.factory({ whatsappId: 3, companyId: 7, handlers: recordingHandlers().handlers })
      await owner.connect()
      await until(() => dead.isConnected(3))
      await owner.sendText({ to: '5511999990003', body: 'Oi', id: 'CAMPAIGN-1' })
      const next = adopter.factory({ whatsappId: 3, companyId: 7, handlers: recordingHandlers().handlers })
      await next.connect()
      await until(() => adopter.isConnected(3))
      expect(await next.findSent!('CAMPAIGN-1')).toEqual({ id: 'CAMPAIGN-1' })
      expect(await next.findSent!('CAMPAIGN-2')).toBeUndefined()
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  test('a provider replaced by a newer one for the same connection can no longer send', async () => {
    const simulator = createSimulator()
    simulator.configure(fast)
    const old = recordingHandlers()
    const current = recordingHandlers()
    const oldProvider = simulator.factory({ whatsappId: 2, companyId: 7, handlers: old.handlers })
    await oldProvider.connect()
    await until(() => simulator.isConnected(2))
    const newProvider = simulator.factory({ whatsappId: 2, companyId: 7, handlers: current.handlers })
    await newProvider.connect()
    await expect(oldProvider.sendText({ to: '5511999990001', body: 'x' })).rejects.toThrow('not open')
    await until(() => simulator.isConnected(2))
    const sent = await newProvider.sendText({ to: '5511999990001', body: 'hello' })
    await until(() => current.acks.length === 2)
    expect(current.acks).toEqual([{ id: sent.id, ack: 2 }, { id: sent.id, ack: 3 }])
    expect(old.acks).toEqual([])
    // Disconnected, pending receipts are dropped and sending fails.
    await newProvider.sendText({ to: '5511999990001', body: 'second' })
    await newProvider.disconnect()
    await Bun.sleep(40)
    expect(current.acks).toHaveLength(2)
    await expect(newProvider.sendText({ to: '5511999990001', body: 'x' })).rejects.toThrow('not open')
    await expect(simulator.simulateInbound(2, { from: '5511999990001', body: 'x' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' })
  })

  test('numbers and media types', () => {
    expect(simulatedNumberExists('5511999990001')).toBe(true)
    expect(simulatedNumberExists('1234567890')).toBe(true)
    expect(simulatedNumberExists('5511900000000')).toBe(false)
    expect(simulatedNumberExists('123456789')).toBe(false)
    expect(mediaTypeOfMimetype('image/jpeg')).toBe('image')
    expect(mediaTypeOfMimetype('audio/ogg; codecs=opus')).toBe('audio')
    expect(mediaTypeOfMimetype('video/mp4')).toBe('video')
    expect(mediaTypeOfMimetype('text/vcard')).toBe('vcard')
    expect(mediaTypeOfMimetype('application/pdf')).toBe('application')
  })
})
