// Menu and popover triggers whose overlay is a chunk of its own. react-aria-components' MenuTrigger and
// DialogTrigger live in modules (Menu.mjs, Dialog.mjs) that import each other, Popover.mjs and the whole
// collection, selection and positioning machinery; the bundler splits by module, so one MenuTrigger in
// the top bar put all of it (~35 KB brotli) in every page's first-load JS. These are the same two
// components (same hooks, same contexts, same defaults) cut in two: the trigger's state and press
// handling here, on react-aria's and react-stately's hooks alone; the contexts that Popover, Menu and
// Dialog read, with the overlay itself, in the lazily loaded part (overlay-contexts.tsx), which receives
// `trigger`. The overlay element stays rendered while closed, so its chunk is fetched right after the
// page's first render; pressed before it arrived, the overlay opens (focus moved in) once it has.
import { useRef, type ReactNode, type RefObject } from 'react'
import { useMenuTrigger, type MenuTriggerAria } from 'react-aria/useMenu'
import { useOverlayTrigger, type OverlayTriggerAria } from 'react-aria/useOverlayTrigger'
import { useId } from 'react-aria/useId'
import { PressResponder } from 'react-aria/private/interactions/PressResponder'
import { useMenuTriggerState, type RootMenuTriggerState } from 'react-stately/useMenuTriggerState'

export type MenuTriggerHandle = {
  state: RootMenuTriggerState
  menuProps: MenuTriggerAria<unknown>['menuProps']
  triggerRef: RefObject<HTMLElement | null>
}

export type DialogTriggerHandle = {
  state: RootMenuTriggerState
  overlayProps: OverlayTriggerAria['overlayProps'] & { 'aria-labelledby'?: string }
  triggerRef: RefObject<HTMLElement | null>
}

/** react-aria-components' MenuTrigger: `children` is the Button, `menu` renders the (lazy) popover with its menu. */
export function SplitMenuTrigger({ children, menu, onOpenChange }: { children: ReactNode; menu: (trigger: MenuTriggerHandle) => ReactNode; onOpenChange?: (isOpen: boolean) => void }) {
  const state = useMenuTriggerState({ onOpenChange })
  const triggerRef = useRef<HTMLElement>(null)
  const { menuTriggerProps, menuProps } = useMenuTrigger({ type: 'menu' }, state, triggerRef)
  return (
    <>
      <PressResponder {...menuTriggerProps} ref={triggerRef} isPressed={state.isOpen}>
        {children}
      </PressResponder>
      {menu({ state, menuProps, triggerRef })}
    </>
  )
}

/** react-aria-components' DialogTrigger: `children` is the Button, `popover` renders the (lazy) popover with its dialog. */
export function SplitDialogTrigger({ children, popover, onOpenChange }: { children: ReactNode; popover: (trigger: DialogTriggerHandle) => ReactNode; onOpenChange?: (isOpen: boolean) => void }) {
  // As DialogTrigger does: the menu trigger's state, in case a menu is embedded in the dialog.
  const state = useMenuTriggerState({ onOpenChange })
  const triggerRef = useRef<HTMLElement>(null)
  const { triggerProps, overlayProps } = useOverlayTrigger({ type: 'dialog' }, state, triggerRef)
  // The dialog is labelled by its trigger when it has no title slot, as DialogTrigger does.
  const triggerId = useId()
  const labelledTriggerProps = { ...triggerProps, id: triggerId }
  return (
    <>
      <PressResponder {...labelledTriggerProps} ref={triggerRef} isPressed={state.isOpen}>
        {children}
      </PressResponder>
      {popover({ state, overlayProps: { ...overlayProps, 'aria-labelledby': triggerId }, triggerRef })}
    </>
  )
}
