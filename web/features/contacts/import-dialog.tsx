// Import contacts from a .xlsx spreadsheet (§2 Contacts, §5 Import, §7 POST /contacts/upload): the file
// goes up with a progress bar, then the server's answer shows how many contacts were added and, row by
// row, why the others were refused.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { FileTrigger, Label, ProgressBar } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { UploadIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { uploadReasonMessages } from './upload-reasons.ts'
import { isSpreadsheetName, rowNumberOf, rowSummaryOf } from './upload-report.ts'
import { uploadSpreadsheet, type UploadAnswer } from './upload-request.ts'
import { ImportReport } from './import-report.tsx'

type Phase = { step: 'choose' } | { step: 'sending'; fraction: number } | { step: 'done'; result: UploadAnswer }

export type ImportDialogProps = {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** Contacts were added: the list shows them. */
  onImported: () => void
}

export function ImportDialog({ isOpen, onOpenChange, onImported }: ImportDialogProps) {
  const { t } = useLingui()
  const [phase, setPhase] = useState<Phase>({ step: 'choose' })
  const close = (open: boolean) => {
    // The upload cannot be called back halfway: the dialog stays until the server answers.
    if (open || phase.step === 'sending') return
    onOpenChange(false)
    setPhase({ step: 'choose' })
  }
  return (
    <Dialog title={t`Import contacts`} isOpen={isOpen} onOpenChange={close} size={phase.step === 'done' ? 'large' : 'normal'}>
      {phase.step === 'done' ? (
        <ImportReportOf result={phase.result} onClose={() => close(false)} onAgain={() => setPhase({ step: 'choose' })} />
      ) : (
        <ImportForm
          fraction={phase.step === 'sending' ? phase.fraction : null}
          onProgress={(fraction) => setPhase({ step: 'sending', fraction })}
          onFailed={() => setPhase({ step: 'choose' })}
          onDone={(result) => {
            setPhase({ step: 'done', result })
            if (result.newContacts.length > 0) onImported()
          }}
          onCancel={() => close(false)}
        />
      )}
    </Dialog>
  )
}

type ImportFormProps = {
  /** The share of the file sent so far while sending (1: the server is reading it); null before. */
  fraction: number | null
  onProgress: (fraction: number) => void
  onFailed: () => void
  onDone: (result: UploadAnswer) => void
  onCancel: () => void
}

function ImportForm({ fraction, onProgress, onFailed, onDone, onCancel }: ImportFormProps) {
  const { t, i18n } = useLingui()
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string | undefined>()
  const sending = fraction !== null

  const choose = (files: FileList | null) => {
    const chosen = files?.[0] ?? null
    if (!chosen) return
    if (!isSpreadsheetName(chosen.name)) {
      setFile(null)
      setError(t`Choose a .xlsx spreadsheet.`)
      return
    }
    setFile(chosen)
    setError(undefined)
  }

  const send = async () => {
    if (!file) {
      setError(t`Choose a .xlsx spreadsheet.`)
      return
    }
    onProgress(0)
    const outcome = await uploadSpreadsheet(file, onProgress)
    if (outcome.ok) {
      onDone(outcome.result)
      return
    }
    onFailed()
    const text = errorMessage(i18n, outcome.code)
    setError(text)
    showToast('error', text)
  }

  const fileName = file?.name ?? ''
  return (
    <div className="contacts-import">
      <p className="contacts-import-help">{t`The first row names the columns: name (or nome), number (or numero, telefone, celular) and e-mail. Each following row is a contact; numbers without a country code are taken as Brazilian.`}</p>
      <div className="contacts-import-file">
        <FileTrigger acceptedFileTypes={['.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']} onSelect={choose}>
          <Button variant="secondary" isDisabled={sending}>
            <UploadIcon />
            {t`Choose a spreadsheet`}
          </Button>
        </FileTrigger>
        <span className="contacts-import-file-name" aria-live="polite">
          {file ? fileName : t`No file chosen`}
        </span>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {sending ? <UploadProgress fraction={fraction} /> : null}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onCancel} isDisabled={sending}>
          {t`Cancel`}
        </Button>
        <Button onPress={() => void send()} isPending={sending}>
          {t`Import`}
        </Button>
      </div>
    </div>
  )
}

function UploadProgress({ fraction }: { fraction: number }) {
  const { t } = useLingui()
  // Once the file is up, the server still reads and saves it: an indeterminate bar says "working".
  const reading = fraction >= 1
  return (
    <ProgressBar className="contacts-progress" value={Math.round(fraction * 100)} isIndeterminate={reading}>
      {({ percentage, valueText }) => (
        <>
          <div className="contacts-progress-head">
            <Label>{reading ? t`Saving the contacts…` : t`Sending the spreadsheet…`}</Label>
            {reading ? null : <span>{valueText}</span>}
          </div>
          <div className="contacts-progress-track">
            <div className={reading ? 'contacts-progress-fill contacts-progress-busy' : 'contacts-progress-fill'} style={reading ? undefined : { width: `${percentage ?? 0}%` }} />
          </div>
        </>
      )}
    </ProgressBar>
  )
}

function ImportReportOf({ result, onClose, onAgain }: { result: UploadAnswer; onClose: () => void; onAgain: () => void }) {
  const { i18n } = useLingui()
  const added = result.newContacts.length
  const refused = result.errorBag.length
  const summary = (
    <>
      {plural(added, { one: '# contact imported.', other: '# contacts imported.' })}
      {refused > 0 ? ` ${plural(refused, { one: '# row was not imported:', other: '# rows were not imported:' })}` : null}
    </>
  )
  const rows = result.errorBag.map((entry) => ({ key: entry.index, row: rowNumberOf(entry), content: rowSummaryOf(entry), reason: i18n._(uploadReasonMessages[entry.reason]) }))
  return <ImportReport summary={summary} refused={rows} onClose={onClose} onAgain={onAgain} />
}
