// Data retention (admins): how many days the messages of closed tickets are kept (0 keeps them
// forever; the daily job erases older ones with their files), and the report of the last run.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { formatDateTime } from '../../i18n/format.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { failureOf } from './requests.ts'

export const RETENTION_KEY = 'dataRetentionDays'
const maxDays = 36_500

type Report = { startedAt: string | Date; finishedAt: string | Date | null; status: string; messagesErased: number; filesRemoved: number; filesFailed: number; error: string | null; retentionDays: number }

export type DataRetentionSectionProps = { stored: string; onSave: (key: string, value: string) => Promise<boolean> }

export function DataRetentionSection({ stored, onSave }: DataRetentionSectionProps) {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const [value, setValue] = useState(stored)
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  useEffect(() => setValue(stored), [stored])
  if (!isAdmin(user)) return null

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const days = value.trim()
    if (!/^\d{1,5}$/.test(days) || Number(days) > maxDays) {
      setError(t`A whole number of days from 0 to 36500.`)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      await onSave(RETENTION_KEY, String(Number(days)))
    } finally {
      setPending(false)
    }
  }

  return (
    <section className="settings-option settings-retention" aria-labelledby="retention-title">
      <h3 id="retention-title">{t`Data retention`}</h3>
      <Form className="settings-token" onSubmit={submit} validationBehavior="aria">
        <TextField
          label={t`Erase closed tickets' messages after (days)`}
          name={RETENTION_KEY}
          inputMode="numeric"
          value={value}
          onChange={setValue}
          error={error}
          description={t`Every day, the messages and media files of tickets closed longer ago than this are erased. 0 keeps them forever.`}
        />
        <Button type="submit" variant="secondary" isPending={pending} isDisabled={value.trim() === stored}>
          {t`Save retention`}
        </Button>
      </Form>
      <LastRetentionRun version={stored} />
    </section>
  )
}

/** The newest report; read again when the setting changes. */
function LastRetentionRun({ version }: { version: string }) {
  const { t, i18n } = useLingui()
  const [report, setReport] = useState<Report | null | undefined>(undefined)
  useEffect(() => {
    let current = true
    api['data-retention'].reports
      .get({ query: {} })
      .then(({ data, error }) => {
        if (!current) return
        if (error || !data) showToast('error', failureOf(i18n, error).text)
        else setReport(data.reports[0] ?? null)
      })
      .catch((failure: unknown) => current && showToast('error', failureOf(i18n, failure).text))
    return () => {
      current = false
    }
  }, [i18n, version])

  if (report === undefined) return null
  if (report === null) return <p className="field-description retention-report">{t`No retention run yet.`}</p>
  const started = formatDateTime(report.startedAt)
  const finished = report.finishedAt ? formatDateTime(report.finishedAt) : '—'
  const messages = report.messagesErased
  const files = report.filesRemoved
  const failed = report.filesFailed
  const days = report.retentionDays
  const status = report.status === 'done' ? t`completed` : report.status === 'failed' ? t`failed` : t`running`
  return (
    <dl className="retention-report" aria-label={t`Last retention run`}>
      <dt>{t`Last run`}</dt>
      <dd>{t`${started} to ${finished} (${status}), keeping ${days} days`}</dd>
      <dt>{t`Erased`}</dt>
      <dd>{t`${messages} messages, ${files} files removed, ${failed} files failed`}</dd>
      {report.error ? (
        <>
          <dt>{t`Error`}</dt>
          <dd>{report.error}</dd>
        </>
      ) : null}
    </dl>
  )
}
