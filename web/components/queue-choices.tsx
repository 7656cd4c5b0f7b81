// A queue multi-select (connection form, user modal): one checkbox per queue with its colour, in a
// labelled group so assistive technology announces the choice and any error.
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components'
import { FieldHelp } from './field-help.tsx'
import { CheckIcon } from './icons.tsx'

export type QueueChoice = { id: number; name: string; color: string }

export type QueueChoicesProps = {
  label: string
  queues: QueueChoice[]
  value: number[]
  onChange: (ids: number[]) => void
  /** Shown when there is no queue to choose. */
  emptyText: string
  description?: string
  error?: string
}

export function QueueChoices({ label, queues, value, onChange, emptyText, description, error }: QueueChoicesProps) {
  return (
    <CheckboxGroup className="field full" value={value.map(String)} onChange={(ids) => onChange(ids.map(Number))} isInvalid={Boolean(error)} validationBehavior="aria">
      <Label className="field-label">{label}</Label>
      {queues.length === 0 ? <span className="field-description">{emptyText}</span> : null}
      <div className="queue-choices">
        {queues.map((queue) => (
          <Checkbox key={queue.id} value={String(queue.id)} className="queue-choice">
            {({ isSelected }) => (
              <>
                <span className="queue-choice-box" aria-hidden="true">
                  {isSelected ? <CheckIcon /> : null}
                </span>
                <span className="color-chip" style={{ background: queue.color }} aria-hidden="true" />
                {queue.name}
              </>
            )}
          </Checkbox>
        ))}
      </div>
      <FieldHelp description={description} error={error} />
    </CheckboxGroup>
  )
}
