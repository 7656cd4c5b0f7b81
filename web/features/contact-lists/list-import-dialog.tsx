// Import a list's contacts from a spreadsheet (§2 Contact list items "import", §5 Import, §7 POST
// /contact-lists/{id}/upload): the file goes up with a progress bar, then the answer says how many
// contacts were added and, line by line, why the others were left out. WhatsApp checks follow live.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { FileTrigger, Label, ProgressBar } from 'react-aria-components'
import type { ListUploadResult } from '../../../src/modules/contact-lists/model.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { UploadIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { rowSummaryOf } from '../contacts/upload-report.ts'
import { isListSpreadsheetName, uploadListSpreadsheet } from './requests.ts'
import { listUploadReasonMessages } from './upload-reasons.ts'
import { ImportReport } from '../contacts/import-report.tsx'

type Phase = { step: 'choose' } | { step: 'sending'; fraction: number } | { step: 'done'; result: ListUploadResult }

export type ListImportDialogProps = { contactListId: number; isOpen: boolean; onOpenChange: (isOpen: boolean) => void; onImported: () => void }

export function ListImportDialog({ contactListId, isOpen, onOpenChange, onImported }: ListImportDialogProps) {
  const { t } = useLingui()
  const [phase, setPhase] = useState<Phase>({ step: 'choose' })
  const close = (open: boolean) => {
    // The upload cannot be called back halfway: the dialog stays until the server answers.
    if (open || phase.step === 'sending') return
    onOpenChange(false)
    setPhase({ step: 'choose' })
  }
  return (
    <Dialog title={t`Import contacts into the list`} isOpen={isOpen} onOpenChange={close} size={phase.step === 'done' ? 'large' : 'normal'}>
      {phase.step === 'done' ? (
        <ImportReportOf result={phase.result} onClose={() => close(false)} onAgain={() => setPhase({ step: 'choose' })} />
      ) : (
        <ImportForm
          contactListId={contactListId}
          fraction={phase.step === 'sending' ? phase.fraction : null}
          onProgress={(fraction) => setPhase({ step: 'sending', fraction })}
          onFailed={() => setPhase({ step: 'choose' })}
          onDone={(result) => {
            setPhase({ step: 'done', result })
            if (result.added > 0) onImported()
          }}
          onCancel={() => close(false)}
        />
      )}
    </Dialog>
  )
}

type ImportFormProps = {
  contactListId: number
  fraction: number | null
  onProgress: (fraction: number) => void
  onFailed: () => void
  onDone: (result: ListUploadResult) => void
  onCancel: () => void
}

function ImportForm({ contactListId, fraction, onProgress, onFailed, onDone, onCancel }: ImportFormProps) {
  const { t, i18n } = useLingui()
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState<string | undefined>()
  const sending = fraction !== null
  const chooseText = t`Choose a .xlsx, .xls or .csv spreadsheet.`

  const choose = (files: FileList | null) => {
    const chosen = files?.[0] ?? null
    if (!chosen) return
    if (!isListSpreadsheetName(chosen.name)) {
      setFile(null)
      setError(chooseText)
      return
    }
    setFile(chosen)
    setError(undefined)
  }

  const send = async () => {
    if (!file) {
      setError(chooseText)
      return
    }
    onProgress(0)
    const outcome = await uploadListSpreadsheet(contactListId, file, onProgress)
    if (outcome.ok) {
      onDone(outcome.result)
      return
    }
    onFailed()
    const text = outcome.fields[0]?.message ?? errorMessage(i18n, outcome.code)
    setError(text)
    showToast('error', errorMessage(i18n, outcome.code))
  }

  return (
    <div className="contacts-import">
      <p className="contacts-import-help">{t`The first row names the columns: name (or nome), number (or numero, telefone, celular) and e-mail. Each following row is a contact of the list; WhatsApp is then asked about each number.`}</p>
      <div className="contacts-import-file">
        <FileTrigger acceptedFileTypes={['.xlsx', '.xls', '.csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel', 'text/csv']} onSelect={choose}>
          <Button variant="secondary" isDisabled={sending}>
            <UploadIcon />
            {t`Choose a spreadsheet`}
          </Button>
        </FileTrigger>
        <span className="contacts-import-file-name" aria-live="polite">
          {file ? file.name : t`No file chosen`}
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

export function UploadProgress({ fraction, savingText }: { fraction: number; savingText?: string }) {
  const { t } = useLingui()
  // Once the file is up, the server still reads and saves it: an indeterminate bar says "working".
  const reading = fraction >= 1
  return (
    <ProgressBar className="contacts-progress" value={Math.round(fraction * 100)} isIndeterminate={reading}>
      {({ percentage, valueText }) => (
        <>
          <div className="contacts-progress-head">
            <Label>{reading ? (savingText ?? t`Saving the contacts…`) : t`Sending the file…`}</Label>
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

function ImportReportOf({ result, onClose, onAgain }: { result: ListUploadResult; onClose: () => void; onAgain: () => void }) {
  const { i18n } = useLingui()
  const added = result.added
  const refused = result.errorBag.length
  const summary = (
    <>
      {plural(added, { one: '# contact added to the list.', other: '# contacts added to the list.' })}
      {refused > 0 ? ` ${plural(refused, { one: '# row was not imported:', other: '# rows were not imported:' })}` : null}
    </>
  )
  const rows = result.errorBag.map((entry) => ({ key: entry.line, row: entry.line, content: rowSummaryOf(entry), reason: i18n._(listUploadReasonMessages[entry.reason]) }))
  return <ImportReport summary={summary} refused={rows} onClose={onClose} onAgain={onAgain} />
}
