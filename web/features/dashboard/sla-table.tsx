// Service levels of the period: met and breached first responses and resolutions per queue with
// targets and per agent (GET /dashboard/sla). Targets are set on each queue (Queues page). Each
// number opens the tickets it counts (the drill-down, GET /dashboard/tickets?sla=...).
import { useLingui } from '@lingui/react/macro'
import { Button } from '../../components/button.tsx'
import type { DrillDownTarget } from './drill-down-dialog.tsx'
import type { ServiceLevels } from './use-dashboard.ts'

type Tally = { met: number; breached: number }
type Kind = 'firstResponse' | 'resolution'
type Row = { name: string; queueId?: number; userId?: number }

function Share({ tally, kind, row, onOpen }: { tally: Tally; kind: Kind; row: Row; onOpen: (target: DrillDownTarget) => void }) {
  const { t } = useLingui()
  const total = tally.met + tally.breached
  const percent = total === 0 ? null : Math.round((tally.met / total) * 100)
  const { name, queueId, userId } = row
  const titles =
    kind === 'firstResponse'
      ? { met: t`First response met: ${name}`, breached: t`First response breached: ${name}` }
      : { met: t`Resolution met: ${name}`, breached: t`Resolution breached: ${name}` }
  const open = (verdict: 'Met' | 'Breached') =>
    onOpen({ title: verdict === 'Met' ? titles.met : titles.breached, filter: { sla: `${kind}${verdict}`, queueId, userId } })
  return (
    <>
      <Button className="link-button dashboard-sla-met" aria-label={`${titles.met}: ${tally.met}`} onPress={() => open('Met')}>
        {tally.met}
      </Button>{' '}
      /{' '}
      <Button className={`link-button${tally.breached > 0 ? ' dashboard-sla-breached' : ''}`} aria-label={`${titles.breached}: ${tally.breached}`} onPress={() => open('Breached')}>
        {tally.breached}
      </Button>
      {percent === null ? null : <span className="dashboard-sla-percent"> ({percent}%)</span>}
    </>
  )
}

export function SlaTable({ sla, onOpen }: { sla: ServiceLevels; onOpen: (target: DrillDownTarget) => void }) {
  const { t } = useLingui()
  const target = (minutes: number | null) => (minutes === null ? '—' : t`${minutes} min`)
  return (
    <section className="dashboard-card dashboard-sla" aria-label={t`Service levels`}>
      <h2 className="dashboard-card-title">{t`Service levels`}</h2>
      {sla.queues.length === 0 ? (
        <p className="user-muted">{t`No queue has service-level targets yet: set them in each queue's dialog.`}</p>
      ) : (
        <div className="dashboard-sla-tables">
          <div className="data-table-frame">
            <table className="data-table" aria-label={t`Service levels per queue`}>
              <thead>
                <tr>
                  <th scope="col">{t`Queue`}</th>
                  <th scope="col" data-align="end">{t`First response target`}</th>
                  <th scope="col" data-align="end">{t`First response met / breached`}</th>
                  <th scope="col" data-align="end">{t`Resolution target`}</th>
                  <th scope="col" data-align="end">{t`Resolution met / breached`}</th>
                </tr>
              </thead>
              <tbody>
                {sla.queues.map((queue) => (
                  <tr key={queue.queueId}>
                    <td>{queue.name}</td>
                    <td data-align="end">{target(queue.firstResponseTarget)}</td>
                    <td data-align="end"><Share tally={queue.firstResponse} kind="firstResponse" row={{ name: queue.name, queueId: queue.queueId }} onOpen={onOpen} /></td>
                    <td data-align="end">{target(queue.resolutionTarget)}</td>
                    <td data-align="end"><Share tally={queue.resolution} kind="resolution" row={{ name: queue.name, queueId: queue.queueId }} onOpen={onOpen} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="data-table-frame">
            <table className="data-table" aria-label={t`Service levels per agent`}>
              <thead>
                <tr>
                  <th scope="col">{t`Agent`}</th>
                  <th scope="col" data-align="end">{t`First response met / breached`}</th>
                  <th scope="col" data-align="end">{t`Resolution met / breached`}</th>
                </tr>
              </thead>
              <tbody>
                {sla.agents.map((agent) => (
                  <tr key={agent.userId}>
                    <td>{agent.name}</td>
                    <td data-align="end"><Share tally={agent.firstResponse} kind="firstResponse" row={{ name: agent.name, userId: agent.userId }} onOpen={onOpen} /></td>
                    <td data-align="end"><Share tally={agent.resolution} kind="resolution" row={{ name: agent.name, userId: agent.userId }} onOpen={onOpen} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  )
}
