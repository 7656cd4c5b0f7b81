// "Cancel if the customer replies first": a message the contact sends (message.created from WhatsApp,
// not ours) cancels the contact's follow-ups that were armed before it and are due after it. The list
// and the calendar see them turn CANCELADA through schedule.changed. The dispatcher checks once more
// before sending (dispatch.ts), so a reply this listener has not handled yet never lets one go out.
//
// The listener sits on the inbound hot path, where the listeners are synchronous and a message costs
// a few statements in all: it only notes the reply, and the replies of a burst are handled together a
// moment later, in one UPDATE, rather than one statement more per customer message.
import type { Deps } from '../deps.ts'
import { cancelSchedulesOnReplies, findSchedule, type Reply } from './queries.ts'
import { toSchedule } from './service.ts'

/** Replies noted at most this long before they are handled. */
const REPLY_FLUSH_MS = 20
/** Replies per statement: a burst larger than this is handled in several. */
const REPLIES_PER_STATEMENT = 500

export function listenScheduleReplies(deps: Deps): () => void {
  // The latest reply per company and contact: a later one never cancels less than an earlier one would.
  let pending = new Map<string, Reply>()
  let timer: ReturnType<typeof setTimeout> | undefined

  const flush = async () => {
    timer = undefined
    const replies = [...pending.values()]
    pending = new Map()
    try {
      const cancelled: { id: number; companyId: number }[] = []
      for (let start = 0; start < replies.length; start += REPLIES_PER_STATEMENT) {
        cancelled.push(...(await cancelSchedulesOnReplies(deps.db, replies.slice(start, start + REPLIES_PER_STATEMENT), deps.now())))
      }
      for (const { id, companyId } of cancelled) {
        const row = await findSchedule(deps.db, { companyId, scheduleId: id })
        if (row) await deps.bus.emit('schedule.changed', { companyId, scheduleId: id, action: 'update', schedule: toSchedule(deps, row) })
      }
    } catch (error) {
      deps.logger.error('follow-ups could not be cancelled on reply (the dispatcher checks again before sending)', { error })
    }
  }

  const stop = deps.bus.on('message.created', (event) => {
    if (event.fromMe || event.source !== 'whatsapp') return
    const key = `${event.companyId}:${event.ticket.contactId}`
    const at = new Date(event.message.createdAt)
    const known = pending.get(key)
    if (!known || known.at < at) pending.set(key, { companyId: event.companyId, contactId: event.ticket.contactId, at })
    timer ??= setTimeout(() => void flush(), REPLY_FLUSH_MS)
  })
  return () => {
    stop()
    if (timer) clearTimeout(timer)
  }
}
