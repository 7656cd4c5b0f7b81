// The multiple choice's popover (multi-select.tsx), in a chunk of its own: the listbox is not first-load JS.
import { useLingui } from '@lingui/react/macro'
import { Dialog, ListBox, ListBoxItem, Popover, type Selection } from 'react-aria-components'
import { DialogTriggerContexts } from '../../components/overlay-contexts.tsx'
import type { DialogTriggerHandle } from '../../components/overlay-trigger.tsx'
import type { MultiSelectProps } from './multi-select.tsx'

export function MultiSelectPopover({ trigger, label, options, selected, onChange }: Pick<MultiSelectProps, 'label' | 'options' | 'selected' | 'onChange'> & { trigger: DialogTriggerHandle }) {
  const { t } = useLingui()
  const onSelectionChange = (keys: Selection) => {
    const ids = keys === 'all' ? options.map((option) => option.id) : [...keys].map(Number)
    onChange(ids)
  }
  return (
    <DialogTriggerContexts trigger={trigger}>
        <Popover className="popover multi-select-popover" placement="bottom start">
          <Dialog className="multi-select-dialog" aria-label={label}>
            {options.length === 0 ? (
              <p className="multi-select-empty">{t`Nothing to choose from.`}</p>
            ) : (
              <ListBox
                className="listbox"
                aria-label={label}
                selectionMode="multiple"
                // Escape closes the popover; it must not also clear what was chosen (react-aria's default).
                escapeKeyBehavior="none"
                selectedKeys={new Set(selected)}
                onSelectionChange={onSelectionChange}
                items={options}
                autoFocus
              >
                {(option) => (
                  <ListBoxItem className="listbox-item multi-select-item" id={option.id} textValue={option.label}>
                    {({ isSelected }) => (
                      <>
                        <span className={`multi-select-check ${isSelected ? 'is-checked' : ''}`} aria-hidden="true">
                          {isSelected ? '✓' : ''}
                        </span>
                        {option.color ? <span className="multi-select-swatch" style={{ background: option.color }} aria-hidden="true" /> : null}
                        {option.label}
                      </>
                    )}
                  </ListBoxItem>
                )}
              </ListBox>
            )}
          </Dialog>
        </Popover>
    </DialogTriggerContexts>
  )
}
