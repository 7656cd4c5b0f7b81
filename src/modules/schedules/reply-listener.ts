// "Cancel if the customer replies first": a message the contact sends (message.created from WhatsApp,
// not ours) cancels the contact's follow-ups that were armed before it and are due after it. The list
// and the calendar see them turn CANCELADA through schedule.changed. The dispatcher checks once more
// before sending (dispatch.ts), for a reply stored just before it claimed the message.
import type { Deps } from '../deps.ts'
import { cancelSchedulesOnReply, findSchedule } from './queries.ts'
import { toSchedule } from './service.ts'

export function listenScheduleReplies(deps: Deps): () => void {
  return deps.bus.on('message.created', (event) => {
    // Synchronous for everything else: the inbound hot path allocates no promise for our own messages.
    if (event.fromMe || event.source !== 'whatsapp') return
    return cancelFollowUps(deps, { companyId: event.companyId, contactId: event.ticket.contactId, at: new Date(event.message.createdAt) })
  })
}

async function cancelFollowUps(deps: Deps, input: { companyId: number; contactId: number; at: Date }): Promise<void> {
  const cancelled = await cancelSchedulesOnReply(deps.db, { ...input, now: deps.now() })
  for (const scheduleId of cancelled) {
    const row = await findSchedule(deps.db, { companyId: input.companyId, scheduleId })
    if (row) await deps.bus.emit('schedule.changed', { companyId: input.companyId, scheduleId, action: 'update', schedule: toSchedule(deps, row) })
  }
}
