// The fallback InboundSink: it only logs what the providers report. createApp uses it until the
// inbound pipeline (src/channels/inbound) is plugged in; nothing is stored, nothing is answered.
import type { Logger } from '../../core/logger.ts'
import type { InboundSink } from '../provider.ts'

export function createLoggingSink(logger: Logger): InboundSink {
  return {
    async message(connection, message) {
      logger.info('inbound message (not stored: no inbound pipeline)', {
        ...connection,
        id: message.id,
        from: message.from,
        fromMe: message.fromMe,
        isGroup: message.isGroup,
        mediaType: message.mediaType,
      })
    },
    async ack(connection, update) {
      logger.debug('inbound ack', { ...connection, ...update })
    },
    async revoke(connection, update) {
      logger.debug('inbound revoke', { ...connection, ...update })
    },
    async edit(connection, update) {
      logger.debug('inbound edit', { ...connection, id: update.id })
    },
    async contact(connection, update) {
      logger.debug('inbound contact', { ...connection, number: update.number })
    },
    async call(connection, call) {
      logger.info('inbound call', { ...connection, id: call.id, from: call.from })
    },
    async getMessage() {
      return undefined
    },
  }
}
