// A toggle button (theme, show password) on react-aria's useToggleButton, rendering what
// react-aria-components' ToggleButton renders (aria-pressed and its data-selected, data-pressed,
// data-hovered, data-focused, data-focus-visible attributes). Not that component itself: its module
// imports ToggleButtonGroup's, which brings the toolbar and FocusScope (~4 KB brotli) into every page's
// first load.
import { useRef, type ReactNode } from 'react'
import { useFocusRing } from 'react-aria/useFocusRing'
import { useHover } from 'react-aria/useHover'
import { mergeProps } from 'react-aria/mergeProps'
import { useToggleButton } from 'react-aria/useToggleButton'
import { useToggleState } from 'react-stately/useToggleState'

export type ToggleButtonProps = {
  className: string
  isSelected: boolean
  onChange: (isSelected: boolean) => void
  'aria-label': string
  children: ReactNode
}

export function ToggleButton({ className, isSelected, onChange, children, 'aria-label': label }: ToggleButtonProps) {
  const ref = useRef<HTMLButtonElement>(null)
  const state = useToggleState({ isSelected, onChange })
  const { buttonProps, isPressed } = useToggleButton({ 'aria-label': label }, state, ref)
  const { focusProps, isFocused, isFocusVisible } = useFocusRing()
  const { hoverProps, isHovered } = useHover({})
  return (
    <button
      {...mergeProps(buttonProps, focusProps, hoverProps)}
      ref={ref}
      className={className}
      data-selected={state.isSelected || undefined}
      data-pressed={isPressed || undefined}
      data-hovered={isHovered || undefined}
      data-focused={isFocused || undefined}
      data-focus-visible={isFocusVisible || undefined}
    >
      {children}
    </button>
  )
}
