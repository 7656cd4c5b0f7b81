// A labelled multi-line text (messages of queues, options, connections, quick replies, schedules;
// help descriptions) with its description and error, announced to assistive technology.
import type { ReactNode } from 'react'
import { Label, TextArea, TextField } from 'react-aria-components'
import { FieldHelp } from './field-help.tsx'

export type TextAreaFieldProps = {
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  description?: ReactNode
  maxLength?: number
  rows?: number
  name?: string
  isRequired?: boolean
  isReadOnly?: boolean
}

export function TextAreaField({ label, value, onChange, error, description, maxLength, rows = 3, name, isRequired, isReadOnly }: TextAreaFieldProps) {
  return (
    <TextField
      className="field full"
      value={value}
      onChange={onChange}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      maxLength={maxLength}
      name={name}
      isRequired={isRequired}
      isReadOnly={isReadOnly}
    >
      <Label className="field-label">{label}</Label>
      <div className="field-frame">
        <TextArea className="field-input text-area" rows={rows} />
      </div>
      <FieldHelp description={description} error={error} />
    </TextField>
  )
}
