// The end of a spreadsheet import, shared by the contacts import and a contact list's import: the
// summary line, the rows left out and why, and the two actions.
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button } from '../../components/button.tsx'

export type RefusedRow = { key: number; row: number; content: string; reason: string }

export function ImportReport({ summary, refused, onClose, onAgain }: { summary: ReactNode; refused: RefusedRow[]; onClose: () => void; onAgain: () => void }) {
  const { t } = useLingui()
  return (
    <div className="contacts-import">
      <p className="contacts-import-summary" role="status">
        {summary}
      </p>
      {refused.length > 0 ? (
        <div className="data-table-frame contacts-import-errors">
          <table className="data-table" aria-label={t`Rows not imported`}>
            <thead>
              <tr>
                <th scope="col">{t`Row`}</th>
                <th scope="col">{t`Content`}</th>
                <th scope="col">{t`Reason`}</th>
              </tr>
            </thead>
            <tbody>
              {refused.map((entry) => (
                <tr key={entry.key}>
                  <td>{entry.row}</td>
                  <td>{entry.content}</td>
                  <td>{entry.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onAgain}>
          {t`Import another`}
        </Button>
        <Button onPress={onClose} autoFocus>
          {t`Close`}
        </Button>
      </div>
    </div>
  )
}
