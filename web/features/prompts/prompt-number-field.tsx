// A number of the prompt form (max tokens, temperature, max messages): typed or stepped with the
// arrow keys, formatted in the page's language; `null` while emptied, so the §5 "required" rule can say so.
import type { ReactNode } from 'react'
import { Group, Input, Label, NumberField } from 'react-aria-components'
import { FieldHelp } from '../../components/field-help.tsx'

export type PromptNumberFieldProps = {
  label: string
  value: number | null
  onChange: (value: number | null) => void
  minValue: number
  maxValue: number
  step: number
  /** Decimals shown; 0 for whole numbers. */
  fractionDigits: number
  error?: string
  description?: ReactNode
  name?: string
}

export function PromptNumberField({ label, value, onChange, minValue, maxValue, step, fractionDigits, error, description, name }: PromptNumberFieldProps) {
  return (
    <NumberField
      className="field"
      name={name}
      value={value ?? Number.NaN}
      onChange={(next) => onChange(Number.isNaN(next) ? null : next)}
      minValue={minValue}
      maxValue={maxValue}
      step={step}
      formatOptions={{ minimumFractionDigits: fractionDigits, maximumFractionDigits: Math.max(fractionDigits, fractionDigits > 0 ? 2 : 0), useGrouping: false }}
      isInvalid={Boolean(error)}
      isRequired
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
