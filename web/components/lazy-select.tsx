// The Select of select.tsx in a chunk of its own, for the forms a page paints at once (filters,
// settings). react-aria-components' Select builds its collection by rendering its ListBox and shares
// Popover, Dialog and ListBox modules, ~30 KB brotli of first-load JS that a closed select does not need.
// Until the chunk arrives (right after the page's first render) a look-alike stands in: the same
// label, button, value and error, with the same classes and accessible names. Pressed, focused or
// opened from the keyboard before then, the Select takes over focused and opened (as RAC opens it:
// the listbox gets the focus), so nothing the user did is lost.
import { lazy, Suspense, useId, useState } from 'react'
import { ChevronDownIcon } from './icons.tsx'
import type { SelectProps } from './select.tsx'

const AriaSelect = lazy(() => import('./select.tsx').then((module) => ({ default: module.Select })))

/** Keys that open a closed react-aria Select from its button. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp'])

export function LazySelect(props: SelectProps) {
  const [early, setEarly] = useState({ focused: false, opened: false })
  return (
    <Suspense
      fallback={
        <SelectLookAlike
          {...props}
          onFocus={() => setEarly((current) => ({ ...current, focused: true }))}
          onBlur={() => setEarly((current) => ({ ...current, focused: false }))}
          onOpen={() => setEarly({ focused: true, opened: true })}
        />
      }
    >
      <AriaSelect {...props} autoFocus={early.focused} defaultOpen={early.opened} />
    </Suspense>
  )
}

type LookAlikeProps = SelectProps & { onFocus: () => void; onBlur: () => void; onOpen: () => void }

/** The markup react-aria-components' Select renders while closed (select.tsx), without its behaviour. */
function SelectLookAlike({ label, options, value, placeholder, error, isRequired, isDisabled, name, onFocus, onBlur, onOpen }: LookAlikeProps) {
  const labelId = useId()
  const valueId = useId()
  const errorId = useId()
  const selected = options.find((option) => option.id === value)
  return (
    <div className="field" data-invalid={error ? true : undefined} data-required={isRequired || undefined} data-disabled={isDisabled || undefined}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <button
        type="button"
        className="field-frame select-button"
        aria-labelledby={`${valueId} ${labelId}`}
        aria-describedby={error ? errorId : undefined}
        aria-haspopup="listbox"
        aria-expanded="false"
        disabled={isDisabled}
        onFocus={onFocus}
        onBlur={onBlur}
        // On the press's start, as react-aria opens a Select for a mouse: if the chunk arrives between
        // the pointer's down and up, this button is gone before its click, and the click with it (CI
        // lost the dashboard's period select that way).
        onPointerDown={(event) => {
          if (event.button === 0) onOpen()
        }}
        onClick={onOpen}
        onKeyDown={(event) => {
          if (!OPENING_KEYS.has(event.key)) return
          event.preventDefault()
          onOpen()
        }}
      >
        <span className="select-value" id={valueId} data-placeholder={selected ? undefined : true}>
          {selected ? selected.label : placeholder}
        </span>
        <ChevronDownIcon />
      </button>
      {error ? (
        <span className="field-error" id={errorId} slot="errorMessage">
          {error}
        </span>
      ) : null}
      {name ? <input type="hidden" name={name} value={value === null ? '' : String(value)} /> : null}
    </div>
  )
}
