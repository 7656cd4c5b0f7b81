// A menu in a popover under a SplitMenuTrigger, loaded on its own through lazy-popover-menu.tsx: the
// menu, collection and positioning code is not first-load JS. Its items are data, since Menu and
// MenuItem themselves must stay out of the page's first-load modules.
import type { ReactNode } from 'react'
import { Menu, MenuItem, Popover, type Key, type PopoverProps } from 'react-aria-components'
import { MenuTriggerContexts } from './overlay-contexts.tsx'
import type { MenuTriggerHandle } from './overlay-trigger.tsx'

export type PopoverMenuItem = { id: Key; children: ReactNode; className?: string; textValue?: string }

export type PopoverMenuProps = {
  trigger: MenuTriggerHandle
  'aria-label': string
  items: PopoverMenuItem[]
  onAction: (key: Key) => void
  placement?: PopoverProps['placement']
  /** Shown when `items` is empty. */
  emptyState?: ReactNode
}

export function PopoverMenu({ trigger, items, onAction, placement = 'bottom end', emptyState, 'aria-label': label }: PopoverMenuProps) {
  return (
    <MenuTriggerContexts trigger={trigger}>
      <Popover className="popover" placement={placement}>
        <Menu className="menu" aria-label={label} onAction={onAction} renderEmptyState={emptyState === undefined ? undefined : () => emptyState}>
          {items.map((item) => (
            <MenuItem key={item.id} id={item.id} className={item.className ?? 'menu-item'} textValue={item.textValue}>
              {item.children}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTriggerContexts>
  )
}
