// PopoverDialog in a chunk of its own (lazy-part.tsx): put it where a Popover would go, as the `popover` of a SplitDialogTrigger.
import { lazyPart } from './lazy-part.tsx'

export const LazyPopoverDialog = lazyPart(() => import('./popover-dialog.tsx').then((module) => module.PopoverDialog))
