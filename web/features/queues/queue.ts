// A queue as the page keeps it (GET /queue, the `queue` channel), in the server's menu order.
import type { ScheduleEntry } from '../../../src/modules/companies/model.ts'

export type QueueRow = {
  id: number
  name: string
  color: string
  greetingMessage: string
  outOfHoursMessage: string
  orderQueue: number | null
  integrationId: number | null
  promptId: number | null
  schedules: ScheduleEntry[]
  slaFirstResponseMinutes: number | null
  slaResolutionMinutes: number | null
}


/** Only the fields the page uses: the socket and the REST answer carry more (dates, companyId). */
export function toQueueRow(queue: QueueRow): QueueRow {
  const { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, integrationId, promptId, schedules, slaFirstResponseMinutes, slaResolutionMinutes } = queue
  return { id, name, color, greetingMessage, outOfHoursMessage, orderQueue, integrationId, promptId, schedules, slaFirstResponseMinutes, slaResolutionMinutes }
}

/** The server's order (src/modules/queues/queries.ts findQueues): orderQueue with unset last, then name, then id. */
export function compareQueues(left: QueueRow, right: QueueRow): number {
  if (left.orderQueue !== right.orderQueue) {
    if (left.orderQueue === null) return 1
    if (right.orderQueue === null) return -1
    return left.orderQueue - right.orderQueue
  }
  if (left.name !== right.name) return left.name < right.name ? -1 : 1
  return left.id - right.id
}

export function upsertQueue(queues: readonly QueueRow[], queue: QueueRow): QueueRow[] {
  return [...queues.filter((current) => current.id !== queue.id), toQueueRow(queue)].sort(compareQueues)
}

export function removeQueue(queues: readonly QueueRow[], queueId: number): QueueRow[] {
  return queues.filter((queue) => queue.id !== queueId)
}
