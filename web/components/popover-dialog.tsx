// A popover holding a dialog under a SplitDialogTrigger (the top bar's bell, announcements and internal
// chats), loaded on its own through lazy-popover-dialog.tsx: not first-load JS.
import type { ReactNode } from 'react'
import { Dialog, Popover } from 'react-aria-components'
import { DialogTriggerContexts } from './overlay-contexts.tsx'
import type { DialogTriggerHandle } from './overlay-trigger.tsx'

export type PopoverDialogProps = {
  trigger: DialogTriggerHandle
  popoverClassName: string
  dialogClassName: string
  'aria-label'?: string
  'aria-labelledby'?: string
  children: ReactNode
}

export function PopoverDialog({ trigger, popoverClassName, dialogClassName, children, ...labels }: PopoverDialogProps) {
  return (
    <DialogTriggerContexts trigger={trigger}>
      <Popover className={popoverClassName} placement="bottom end">
        <Dialog className={dialogClassName} {...labels}>
          {children}
        </Dialog>
      </Popover>
    </DialogTriggerContexts>
  )
}
