// A small emoji picker (§2 message input): a popover with category buttons and a grid of emoji.
// Keyboard: Tab reaches the categories and the grid, arrow keys move inside the grid (one tab stop),
// Enter or Space inserts, Escape closes. The popover (emoji-popover.tsx) is a chunk of its own.
import { useLingui } from '@lingui/react/macro'
import { Button } from '../../components/button.tsx'
import { lazyPart } from '../../components/lazy-part.tsx'
import { SplitDialogTrigger } from '../../components/overlay-trigger.tsx'
import { SmileIcon } from './chat-icons.tsx'

const EmojiPopover = lazyPart(() => import('./emoji-popover.tsx').then((module) => module.EmojiPopover))

export function EmojiPicker({ onPick, isDisabled }: { onPick: (emoji: string) => void; isDisabled?: boolean }) {
  const { t } = useLingui()
  return (
    <SplitDialogTrigger popover={(trigger) => <EmojiPopover trigger={trigger} onPick={onPick} />}>
      <Button variant="ghost" icon aria-label={t`Emoji`} isDisabled={isDisabled} className="chat-input-tool chat-emoji-button">
        <SmileIcon />
      </Button>
    </SplitDialogTrigger>
  )
}
