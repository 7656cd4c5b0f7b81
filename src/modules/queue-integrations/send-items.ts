// Sends what an integration answered, in order, through the normal sending path (stored, shown and
// told like an agent's message). A media item is fetched through the guarded client (capped) and sent
// as a file; when it cannot be fetched, its URL goes out as text so the customer still gets it.
// Texts go through the one template renderer ({{firstName}} and the rest). The pause between two
// items (Typebot's typebotDelayMessage) is awaited here: this runs as a job, off every contact's lane.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { renderTemplate } from '../../core/templates/render.ts'
import { redactUrl } from '../../core/http/guarded-fetch.ts'
import { sendAutomaticText } from '../messages/automatic-send.ts'
import { sendToContact } from '../messages/send.ts'
import { targetOf } from '../messages/service.ts'
import type { ContactRow } from '../contacts/contact-row.ts'
import type { TicketRow } from '../tickets/ticket-row.ts'
import type { BotItem } from './bot-reply.ts'

const maxMediaBytes = 16 * 1024 * 1024

export type SendScope = { deps: Deps; registry: ConnectionRegistry; ticket: TicketRow; contact: ContactRow; timezone: string }

function fileNameOf(url: string, mediaType: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1)
    if (last) return decodeURIComponent(last).slice(0, 100)
  } catch {
    // a URL that does not parse is refused by the client below anyway
  }
  return mediaType
}

async function sendMedia(scope: SendScope, item: Extract<BotItem, { kind: 'media' }>, caption: string): Promise<void> {
  const { deps, ticket } = scope
  try {
    const response = await deps.outbound.request({ url: item.url, method: 'GET', timeoutMs: 30_000, maxResponseBytes: maxMediaBytes })
    if (!response.ok) throw new Error(`answered ${response.status}`)
    const mimetype = response.headers.get('content-type')?.split(';')[0]?.trim() || undefined
    const stored = await deps.storage.save({ companyId: ticket.companyId, data: response.body, originalName: fileNameOf(response.url, item.mediaType), ...(mimetype ? { mimetype } : {}) })
    const outcome = await sendToContact(deps, scope.registry, { target: targetOf({ ticket, contact: scope.contact }), items: [{ body: caption, media: stored }], userId: null, source: 'platform' })
    if (outcome.failedIds.length > 0) deps.logger.warn('an integration’s media was not sent', { companyId: ticket.companyId, ticketId: ticket.id })
  } catch (error) {
    deps.logger.warn('an integration’s media could not be fetched: its link is sent instead', { companyId: ticket.companyId, ticketId: ticket.id, url: redactUrl(item.url), error: error instanceof Error ? error.message : String(error) })
    await sendAutomaticText(deps, scope.registry, { companyId: ticket.companyId, ticketId: ticket.id, body: [caption, item.url].filter((part) => part !== '').join('\n'), userId: null })
  }
}

export async function sendBotItems(scope: SendScope, items: BotItem[], delayMs: number): Promise<void> {
  const { deps, ticket, contact } = scope
  const render = (text: string) => renderTemplate(text, { contact, ticketId: ticket.id, now: deps.now(), timezone: scope.timezone })
  for (const [index, item] of items.entries()) {
    if (index > 0 && delayMs > 0) await Bun.sleep(delayMs)
    if (item.kind === 'text') await sendAutomaticText(deps, scope.registry, { companyId: ticket.companyId, ticketId: ticket.id, body: render(item.text), userId: null })
    else await sendMedia(scope, item, render(item.caption))
  }
}
