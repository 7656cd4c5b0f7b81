// The pre-flight summary (issue 12 item 5): who gets the campaign, who not (invalid numbers, opted
// out) and how long the pacing and the daily caps make it. Shown in the dialog and before "Start now".
import { useLingui } from '@lingui/react/macro'
import type { PreflightData } from './campaign-types.ts'

export function PreflightSummary({ preflight }: { preflight: PreflightData }) {
  const { t } = useLingui()
  return (
    <p role="status" className="muted-note campaign-preflight-summary">
      {t`${preflight.recipients} recipients, ${preflight.invalidNumbers} invalid numbers, ${preflight.optedOut} opted out: ${preflight.toSend} to send over ${preflight.connections} connection(s), about ${Math.ceil(preflight.pacedSeconds / 60)} min of pacing, ${preflight.days} day(s) with the daily cap; window ${preflight.sendWindow}.`}
    </p>
  )
}
