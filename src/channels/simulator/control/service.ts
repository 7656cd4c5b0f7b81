// The simulator adapter's control surface, for an admin of the connection's company: a customer writes in,
// WhatsApp reports a receipt, and what the platform sent is read back. Only simulated connections.
import type { Simulator } from '../simulator.ts'
import type { Deps } from '../../../modules/deps.ts'
import { AppError, invalidField } from '../../../core/errors.ts'
import { mimetypeOfName } from '../../../core/storage/mime-types.ts'
import { findCompanyWhatsapp } from '../../../modules/whatsapp/service.ts'
import type { InboundBody } from './model.ts'

type Scope = { companyId: number; whatsappId: number }

/** Another company's connection, or a real (Baileys) one, is not found here. */
async function assertSimulatedConnection(deps: Deps, scope: Scope): Promise<void> {
  const connection = await findCompanyWhatsapp(deps.db, scope)
  if (!connection || connection.provider !== 'simulator') throw new AppError('ERR_NO_WAPP_FOUND')
}

export async function simulateInbound(deps: Deps, simulator: Simulator, scope: Scope, input: InboundBody): Promise<{ id: string }> {
  if (!input.body?.trim() && !input.media) throw invalidField('body', 'body or media is required')
  await assertSimulatedConnection(deps, scope)
  const { media } = input
  if (media && media.size > deps.config.media.maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { maxBytes: deps.config.media.maxBytes })
  const id = await simulator.simulateInbound(scope.whatsappId, {
    from: input.from,
    name: input.name,
    body: input.body,
    quotedId: input.quotedId,
    id: input.id,
    participant: input.participant,
    media: media && {
      data: new Uint8Array(await media.arrayBuffer()),
      mimetype: media.type || mimetypeOfName(media.name),
      fileName: media.name,
    },
  })
  return { id }
}

export async function simulateAck(deps: Deps, simulator: Simulator, scope: Scope, update: { id: string; ack: number }): Promise<void> {
  await assertSimulatedConnection(deps, scope)
  await simulator.simulateAck(scope.whatsappId, update)
}

export async function readOutbox(deps: Deps, simulator: Simulator, scope: Scope, filter: { to?: string }) {
  await assertSimulatedConnection(deps, scope)
  const messages = simulator.outbox(scope.whatsappId).filter((message) => !filter.to || message.to === filter.to)
  return { messages }
}
