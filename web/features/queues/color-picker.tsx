// The queue colour (§9 "drawn from a fixed palette"): a radio group of swatches, so arrow keys move
// through it and each swatch is announced by its colour name. Colours other queues use are marked
// but still selectable: the server has the last word (ERR_QUEUE_COLOR_ALREADY_EXISTS), and its
// answer lands on this field.
import { useLingui } from '@lingui/react/macro'
import { FieldError, Label, Radio, RadioGroup, Text } from 'react-aria-components'
import { paletteColorOf, queuePalette } from './palette.ts'

export type ColorPickerProps = {
  value: string
  onChange: (color: string) => void
  /** Lower-case colour -> the name of the other queue that uses it. */
  usedBy: ReadonlyMap<string, string>
  error?: string
}

export function ColorPicker({ value, onChange, usedBy, error }: ColorPickerProps) {
  const { t, i18n } = useLingui()
  // A stored colour from before the palette (or from the API) stays choosable, so an edit keeps it.
  const offPalette = value && !paletteColorOf(value) ? value : null
  const swatches = [
    ...queuePalette.map((entry) => ({ value: entry.value, name: i18n._(entry.name) })),
    ...(offPalette ? [{ value: offPalette, name: t`Current colour (${offPalette})` }] : []),
  ]
  const selected = swatches.find((swatch) => swatch.value === value.toLowerCase() || swatch.value === value)
  const selectedName = selected?.name ?? ''
  return (
    <RadioGroup
      className="field full queue-colors"
      value={selected?.value ?? null}
      onChange={onChange}
      orientation="horizontal"
      isInvalid={Boolean(error)}
      isRequired
      validationBehavior="aria"
    >
      <Label className="field-label">{t`Colour`}</Label>
      <div className="queue-swatches">
        {swatches.map((swatch) => {
          const owner = usedBy.get(swatch.value.toLowerCase())
          const colorName = swatch.name
          const label = owner ? t`${colorName}, used by ${owner}` : colorName
          return (
            <Radio key={swatch.value} value={swatch.value} className="queue-swatch" aria-label={label} data-used={owner ? true : undefined}>
              <span className="queue-swatch-color" style={{ background: swatch.value }} title={label} aria-hidden="true" />
            </Radio>
          )
        })}
      </div>
      {error ? null : (
        <Text slot="description" className="field-description">
          {selected ? t`Selected: ${selectedName}.` : t`Pick a colour.`} {usedBy.size > 0 ? t`Crossed-out colours are used by other queues.` : null}
        </Text>
      )}
      <FieldError className="field-error">{error}</FieldError>
    </RadioGroup>
  )
}
