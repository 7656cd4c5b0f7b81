// The simulator adapter's control surface, for an admin of the connection's company: a customer writes in,
// WhatsApp reports a receipt, and what the platform sent is read back. Only simulated connections.
// Scaled out, each instance has its own simulator and a phone is connected only in the one owning
// its session: the control then runs there, as an owner task (a web instance owns no session).
import type { SimulatedInbound, Simulator } from '../simulator.ts'
import { defineOwnerTask, type ConnectionRef, type OwnerTask } from '../../provider.ts'
import type { Deps } from '../../../modules/deps.ts'
import { AppError, invalidField } from '../../../core/errors.ts'
import { mimetypeOfName } from '../../../core/storage/mime-types.ts'
import { findCompanyWhatsapp } from '../../../modules/whatsapp/service.ts'
import type { InboundBody } from './model.ts'

type Scope = { companyId: number; whatsappId: number }

type OutboxEntry = ReturnType<Simulator['outbox']>[number]

/** The simulator's controls as owner tasks: each runs on the simulator of the instance owning the session. */
export type SimulatorTasks = {
  inbound: OwnerTask<{ whatsappId: number; message: SimulatedInbound }, { id: string }>
  ack: OwnerTask<{ whatsappId: number; update: { id: string; ack: number } }, null>
  outbox: OwnerTask<{ whatsappId: number }, OutboxEntry[]>
}

export function simulatorTasks(simulator: Simulator): SimulatorTasks {
  return {
    inbound: defineOwnerTask('simulator.inbound', async (_deps, _provider, input: { whatsappId: number; message: SimulatedInbound }) => ({
      id: await simulator.simulateInbound(input.whatsappId, input.message),
    })),
    ack: defineOwnerTask('simulator.ack', async (_deps, _provider, input: { whatsappId: number; update: { id: string; ack: number } }) => {
      await simulator.simulateAck(input.whatsappId, input.update)
      return null
    }),
    outbox: defineOwnerTask('simulator.outbox', async (_deps, _provider, input: { whatsappId: number }) => simulator.outbox(input.whatsappId)),
  }
}

/** Where the sessions are: what the control needs of the connection manager. */
export type SimulatorSessions = {
  isLive(ref: ConnectionRef): boolean
  runOnOwner<Input, Output>(ref: ConnectionRef, task: OwnerTask<Input, Output>, input: Input): Promise<Output>
}

/** The control on the owner of the session; here when the session runs here or runs nowhere (a phone not connected). */
async function onOwner<Input, Output>(sessions: SimulatorSessions | undefined, scope: Scope, task: OwnerTask<Input, Output>, input: Input, here: () => Promise<Output>): Promise<Output> {
  if (!sessions || sessions.isLive(scope)) return here()
  try {
    return await sessions.runOnOwner(scope, task, input)
  } catch (error) {
    if (error instanceof AppError && error.code === 'ERR_WAPP_NOT_INITIALIZED') return here()
    throw error
  }
}

/** Another company's connection, or a real (Baileys) one, is not found here. */
async function assertSimulatedConnection(deps: Deps, scope: Scope): Promise<void> {
  const connection = await findCompanyWhatsapp(deps.db, scope)
  if (!connection || connection.provider !== 'simulator') throw new AppError('ERR_NO_WAPP_FOUND')
}

export async function simulateInbound(deps: Deps, simulator: Simulator, scope: Scope, input: InboundBody, sessions?: SimulatorSessions): Promise<{ id: string }> {
  const tasks = simulatorTasks(simulator)
  if (!input.body?.trim() && !input.media) throw invalidField('body', 'body or media is required')
  await assertSimulatedConnection(deps, scope)
  const { media } = input
  if (media && media.size > deps.config.media.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: deps.config.media.maxBytes })
  const message: SimulatedInbound = {
    from: input.from,
    name: input.name,
    body: input.body,
    quotedId: input.quotedId,
    id: input.id,
    participant: input.participant,
    media: media && {
      data: new Uint8Array(await media.arrayBuffer()),
      mimetype: media.type || mimetypeOfName(media.name),
      // A part sent without a file name arrives without one.
      fileName: media.name || 'file',
    },
  }
  const here = async () => ({ id: await simulator.simulateInbound(scope.whatsappId, message) })
  return onOwner(sessions, scope, tasks.inbound, { whatsappId: scope.whatsappId, message }, here)
}

export async function simulateAck(deps: Deps, simulator: Simulator, scope: Scope, update: { id: string; ack: number }, sessions?: SimulatorSessions): Promise<void> {
  await assertSimulatedConnection(deps, scope)
  await onOwner(sessions, scope, simulatorTasks(simulator).ack, { whatsappId: scope.whatsappId, update }, async () => {
    await simulator.simulateAck(scope.whatsappId, update)
    return null
  })
}

export async function readOutbox(deps: Deps, simulator: Simulator, scope: Scope, filter: { to?: string }, sessions?: SimulatorSessions) {
  await assertSimulatedConnection(deps, scope)
  const outbox = await onOwner(sessions, scope, simulatorTasks(simulator).outbox, { whatsappId: scope.whatsappId }, async () => simulator.outbox(scope.whatsappId))
  const messages = outbox.filter((message) => !filter.to || message.to === filter.to)
  return { messages }
}
