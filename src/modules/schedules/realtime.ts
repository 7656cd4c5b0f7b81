// The company channel `schedule`, to everyone of the company (the calendar and the ticket's list):
// {action: 'create' | 'update', schedule} or {action: 'delete', scheduleId}.
import type { Deps } from '../deps.ts'

export function listenScheduleRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('schedule.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'schedule',
      data: event.action === 'delete' ? { action: 'delete', scheduleId: event.scheduleId } : { action: event.action, schedule: event.schedule },
      audience: { kind: 'company' },
    }),
  )
}
