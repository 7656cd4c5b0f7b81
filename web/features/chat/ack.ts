// The delivery state of one of our messages, from its ack (src/modules/messages/model.ts: 0 not sent,
// 1 sent, 2 server, 3 delivered, 4 read, 5 played; spec §3: "1 sent, 2, 3 delivered, 4 or 5 read").
import type { ChatMessage } from './chat-message.ts'
import { mediaDownloadError } from './media-state.ts'

export type AckState = 'failed' | 'pending' | 'sent' | 'delivered' | 'read' | 'played'

export function ackState(message: Pick<ChatMessage, 'ack' | 'sendError'>): AckState {
  const { ack } = message
  // 0 with an error: WhatsApp refused it. 0 without one: still on its way (the clock). A media that
  // could not be fetched (a message from the phone itself) says nothing about its sending.
  if (ack <= 0) return message.sendError && message.sendError !== mediaDownloadError ? 'failed' : 'pending'
  if (ack <= 2) return 'sent'
  if (ack === 3) return 'delivered'
  if (ack === 4) return 'read'
  return 'played'
}
