// The lazily loaded half of overlay-trigger.tsx: the contexts react-aria-components' MenuTrigger and
// DialogTrigger give the Popover, Menu and Dialog under them, set from the trigger's state.
import { useRef, type ReactNode } from 'react'
import { DialogContext, MenuContext, OverlayTriggerStateContext, PopoverContext, Provider, RootMenuTriggerStateContext } from 'react-aria-components'
import type { DialogTriggerHandle, MenuTriggerHandle } from './overlay-trigger.tsx'

export function MenuTriggerContexts({ trigger, children }: { trigger: MenuTriggerHandle; children: ReactNode }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const { state, menuProps, triggerRef } = trigger
  return (
    <Provider
      values={[
        [MenuContext, { ...menuProps, ref: scrollRef }],
        [OverlayTriggerStateContext, state],
        [RootMenuTriggerStateContext, state],
        [PopoverContext, { trigger: 'MenuTrigger', triggerRef, scrollRef, placement: 'bottom start', 'aria-labelledby': menuProps['aria-labelledby'] }],
      ]}
    >
      {children}
    </Provider>
  )
}

export function DialogTriggerContexts({ trigger, children }: { trigger: DialogTriggerHandle; children: ReactNode }) {
  const { state, overlayProps, triggerRef } = trigger
  return (
    <Provider
      values={[
        [OverlayTriggerStateContext, state],
        [RootMenuTriggerStateContext, state],
        [DialogContext, overlayProps],
        [PopoverContext, { trigger: 'DialogTrigger', triggerRef, id: overlayProps.id, 'aria-labelledby': overlayProps['aria-labelledby'] }],
      ]}
    >
      {children}
    </Provider>
  )
}
