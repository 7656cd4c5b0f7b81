// The prompt's model: the two §9 models are suggested, and any other name may be typed, since a
// self-hosted OpenAI-compatible server has names of its own (llama3.1:8b, mistralai/...).
import { useLingui } from '@lingui/react/macro'
import { Button as AriaButton, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components'
import { FieldHelp } from '../../components/field-help.tsx'
import { ChevronDownIcon } from '../../components/icons.tsx'
import { PROMPT_MODEL_OPTIONS } from './prompt-form.ts'

type Props = { value: string; onChange: (model: string) => void; error?: string }

export function PromptModelField({ value, onChange, error }: Props) {
  const { t } = useLingui()
  return (
    <ComboBox
      className="field"
      name="model"
      inputValue={value}
      onInputChange={onChange}
      onSelectionChange={(key) => key !== null && onChange(String(key))}
      defaultItems={PROMPT_MODEL_OPTIONS}
      allowsCustomValue
      menuTrigger="focus"
      isInvalid={Boolean(error)}
      isRequired
      validationBehavior="aria"
    >
      <Label className="field-label">{t`Model`}</Label>
      <div className="field-frame">
        <Input className="field-input" maxLength={200} />
        <AriaButton className="field-toggle" aria-label={t`Show suggested models`}>
          <ChevronDownIcon />
        </AriaButton>
      </div>
      <FieldHelp description={t`Choose a suggestion or type the name your API's server uses.`} error={error} />
      <Popover className="popover select-popover">
        <ListBox className="listbox">
          {(option: (typeof PROMPT_MODEL_OPTIONS)[number]) => (
            <ListBoxItem className="listbox-item" id={option.id} textValue={option.id}>
              {option.label} ({option.id})
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  )
}
