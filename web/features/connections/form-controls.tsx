// The connection form's controls beyond the shared TextField, TextAreaField, Select and QueueChoices:
// whole numbers and the default switch; each labelled, with its error announced.
import type { ReactNode } from 'react'
import { Group, Input, Label, NumberField, Switch } from 'react-aria-components'
import { FieldHelp } from '../../components/field-help.tsx'
import { MAX_AMOUNT } from './connection-form.ts'

/** A whole number from 0; `null` (emptied) only where the field is optional. */
export function AmountField(props: {
  label: string
  value: number | null
  onChange: (value: number | null) => void
  error?: string
  description?: ReactNode
  isDisabled?: boolean
}) {
  const { label, value, onChange, error, description, isDisabled } = props
  return (
    <NumberField
      className="field"
      value={value ?? Number.NaN}
      onChange={(next) => onChange(Number.isNaN(next) ? null : next)}
      minValue={0}
      maxValue={MAX_AMOUNT}
      step={1}
      formatOptions={{ maximumFractionDigits: 0, useGrouping: false }}
      isInvalid={Boolean(error)}
      isDisabled={isDisabled}
      validationBehavior="aria"
    >
      <Label className="field-label">{label}</Label>
      <Group className="field-frame">
        <Input className="field-input" />
      </Group>
      <FieldHelp description={description} error={error} />
    </NumberField>
  )
}

export function SwitchField(props: { label: string; isSelected: boolean; onChange: (value: boolean) => void; error?: string; description?: string }) {
  const { label, isSelected, onChange, error, description } = props
  return (
    <div className="field">
      <Switch className="connection-switch" isSelected={isSelected} onChange={onChange} aria-describedby={error ? 'connection-default-error' : undefined}>
        <span className="connection-switch-track" aria-hidden="true">
          <span className="connection-switch-thumb" />
        </span>
        {label}
      </Switch>
      {error ? (
        <span id="connection-default-error" className="field-error" role="alert">
          {error}
        </span>
      ) : description ? (
        <span className="field-description">{description}</span>
      ) : null}
    </div>
  )
}
