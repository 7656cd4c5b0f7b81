// Service levels of the period: met and breached first responses and resolutions per queue with
// targets and per agent (GET /dashboard/sla). Targets are set on each queue (Queues page).
import { useLingui } from '@lingui/react/macro'
import type { ServiceLevels } from './use-dashboard.ts'

type Tally = { met: number; breached: number }

function Share({ tally }: { tally: Tally }) {
  const total = tally.met + tally.breached
  const percent = total === 0 ? null : Math.round((tally.met / total) * 100)
  return (
    <>
      <span className="dashboard-sla-met">{tally.met}</span> / <span className={tally.breached > 0 ? 'dashboard-sla-breached' : undefined}>{tally.breached}</span>
      {percent === null ? null : <span className="dashboard-sla-percent"> ({percent}%)</span>}
    </>
  )
}

export function SlaTable({ sla }: { sla: ServiceLevels }) {
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
                    <td data-align="end"><Share tally={queue.firstResponse} /></td>
                    <td data-align="end">{target(queue.resolutionTarget)}</td>
                    <td data-align="end"><Share tally={queue.resolution} /></td>
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
                    <td data-align="end"><Share tally={agent.firstResponse} /></td>
                    <td data-align="end"><Share tally={agent.resolution} /></td>
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
