// A compact multiple choice (queues, tags, users): a button naming the filter and how many are chosen,
// opening a listbox with checkable options (react-aria: arrows, Space, typeahead, Escape).
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button } from 'react-aria-components'
import { ChevronDownIcon } from '../../components/icons.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'
import { SplitDialogTrigger } from '../../components/overlay-trigger.tsx'

// The popover with its listbox: a chunk of its own, fetched right after the first render.
const MultiSelectPopover = lazyPart(() => import('./multi-select-popover.tsx').then((module) => module.MultiSelectPopover))

export type MultiOption = { id: number; label: string; color?: string }

export type MultiSelectProps = {
  label: string
  options: readonly MultiOption[]
  selected: readonly number[]
  onChange: (ids: number[]) => void
  icon?: ReactNode
  className?: string
}

export function MultiSelect({ label, options, selected, onChange, icon, className }: MultiSelectProps) {
  const { t } = useLingui()
  const chosen = selected.length
  return (
    <SplitDialogTrigger popover={(trigger) => <MultiSelectPopover trigger={trigger} label={label} options={options} selected={selected} onChange={onChange} />}>
      <Button className={`button button-secondary multi-select-button ${className ?? ''}`} aria-label={t`${label}: ${chosen} selected`}>
        {icon}
        <span className="multi-select-label">{label}</span>
        {chosen > 0 ? (
          <span className="multi-select-count" aria-hidden="true">
            {chosen}
          </span>
        ) : null}
        <ChevronDownIcon />
      </Button>
    </SplitDialogTrigger>
  )
}
