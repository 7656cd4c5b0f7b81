// One contact's campaign message through the connection's session owner, exactly once.
//
// The protocol (the database is the truth):
//   1. claim   - the row goes PENDING -> CLAIMED with its WhatsApp id, BEFORE the provider is called.
//                The id is deterministic (a hash of company, campaign and row), so it is known before
//                the send and the same on every retry.
//   2. send    - on the session's owner instance, with that id (campaigns.deliver, below).
//   3. confirm - the row goes CLAIMED -> SENT once the provider answered.
// A crash between 1 and 3 leaves a CLAIMED row whose dispatcher is gone (its campaign lease lapsed).
// The next dispatcher asks, before sending again, whether that id went out: the provider's own record
// (findSent: the simulator's outbox, on disk with SIMULATOR_OUTBOX_FILE), else a receipt already
// recorded on the row (ack >= 1), else the echo the messages table stored under that id (Baileys
// echoes our sends). Found: confirmed without a send. Not found: sent again WITH THE SAME ID, which
// WhatsApp keys the message by, so even a send whose trace was lost is one message for the recipient.
import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { messages } from '../../../db/schema/index.ts'
import { defineOwnerTask, type OutgoingMedia, type WhatsAppProvider } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'

/** WhatsApp-looking (Baileys' '3EB0' + 18 hex), unique per row, the same on every retry. */
export function campaignMessageId(scope: { companyId: number; campaignId: number; shippingId: number }, part = 0): string {
  const digest = createHash('sha256').update(`zapdesk-campaign:${scope.companyId}:${scope.campaignId}:${scope.shippingId}:${part}`).digest('hex')
  return `3EB0${digest.slice(0, 18).toUpperCase()}`
}

/** A stored file to send (the campaign's media, a file list's files). */
export type CampaignFile = { path: string; name: string; mimetype: string; kind: OutgoingMedia['kind'] }

/** What one contact gets: the text (as the media's caption when there is media), then the file list's files. */
export type CampaignParcel = { body: string; media?: CampaignFile; files: CampaignFile[] }

type DeliverInput = { companyId: number; whatsappId: number; number: string; ids: string[]; parcel: CampaignParcel; recheck: boolean }

async function outgoingMedia(deps: Deps, file: CampaignFile, caption?: string): Promise<OutgoingMedia> {
  const stored = await deps.storage.read(file.path)
  if (!stored) throw new Error(`the campaign file ${file.name} is gone`)
  return { kind: file.kind, data: new Uint8Array(await stored.arrayBuffer()), mimetype: file.mimetype, fileName: file.name, ...(caption ? { caption } : {}) }
}

/** Whether the id already left: the provider's record, else the echo stored in the messages table. */
export async function alreadySent(deps: Deps, provider: WhatsAppProvider, scope: { companyId: number; whatsappId: number; id: string }): Promise<boolean> {
  if (provider.findSent && (await provider.findSent(scope.id))) return true
  const [echo] = await deps.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, scope.companyId), eq(messages.whatsappId, scope.whatsappId), eq(messages.wid, scope.id)))
    .limit(1)
  return Boolean(echo)
}

/**
 * Sends the parcel's parts on the owner, each under its own deterministic id (ids[0] the message,
 * then one per file). On a retry (recheck) a part that already left is skipped.
 */
export const campaignDeliverTask = defineOwnerTask('campaigns.deliver', async (deps: Deps, provider: WhatsAppProvider, input: DeliverInput): Promise<{ sentParts: number; skippedParts: number }> => {
  const { parcel } = input
  let sentParts = 0
  let skippedParts = 0
  const parts: (() => Promise<unknown>)[] = [
    async () =>
      parcel.media
        ? provider.sendMedia({ to: input.number, media: await outgoingMedia(deps, parcel.media, parcel.body), id: input.ids[0] })
        : provider.sendText({ to: input.number, body: parcel.body, id: input.ids[0] }),
    ...parcel.files.map((file, index) => async () => provider.sendMedia({ to: input.number, media: await outgoingMedia(deps, file), id: input.ids[index + 1] })),
  ]
  for (const [index, send] of parts.entries()) {
    const id = input.ids[index]!
    if (input.recheck && (await alreadySent(deps, provider, { companyId: input.companyId, whatsappId: input.whatsappId, id }))) {
      skippedParts += 1
      continue
    }
    await send()
    sentParts += 1
  }
  return { sentParts, skippedParts }
})
