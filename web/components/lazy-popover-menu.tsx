// PopoverMenu in a chunk of its own (lazy-part.tsx): the `menu` of a SplitMenuTrigger.
import { lazyPart } from './lazy-part.tsx'

export const LazyPopoverMenu = lazyPart(() => import('./popover-menu.tsx').then((module) => module.PopoverMenu))
