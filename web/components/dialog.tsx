// A modal dialog: focus moves in and is trapped, Escape and the close button dismiss it, a heading names it.
// The frame (dialog-frame.tsx) is a chunk of its own, not first-load JS: a dialog rendered closed with
// the page is fetched right after the page's first render; one rendered on a press, on that press, and
// it opens (focus moved in) as soon as it has arrived.
import type { ReactNode } from 'react'
import { lazyPart } from './lazy-part.tsx'

export type DialogProps = {
  title: string
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  children: ReactNode
  /** 'large' for forms with many fields or tabs (connections, queues, plans). */
  size?: 'normal' | 'large'
}

export const Dialog = lazyPart(() => import('./dialog-frame.tsx').then((module) => module.DialogFrame))
