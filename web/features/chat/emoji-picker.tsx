// A small emoji picker (§2 message input): a popover with category buttons and a grid of emoji.
// Keyboard: Tab reaches the categories and the grid, arrow keys move inside the grid (one tab stop),
// Enter or Space inserts, Escape closes.
import { useLingui } from '@lingui/react/macro'
import { useRef, useState, type KeyboardEvent } from 'react'
import { Dialog, DialogTrigger, Popover } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { SmileIcon } from './chat-icons.tsx'
import { emojiCategories } from './emoji-data.ts'

const COLUMNS = 8

export function EmojiPicker({ onPick, isDisabled }: { onPick: (emoji: string) => void; isDisabled?: boolean }) {
  const { t, i18n } = useLingui()
  const [categoryId, setCategoryId] = useState(emojiCategories[0]!.id)
  const [active, setActive] = useState(0)
  const grid = useRef<HTMLDivElement>(null)
  const category = emojiCategories.find((item) => item.id === categoryId) ?? emojiCategories[0]!

  const focusCell = (index: number) => {
    const next = Math.max(0, Math.min(category.emoji.length - 1, index))
    setActive(next)
    grid.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus()
  }

  const onGridKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS }
    if (event.key in moves) {
      event.preventDefault()
      focusCell(active + moves[event.key]!)
    } else if (event.key === 'Home') {
      event.preventDefault()
      focusCell(0)
    } else if (event.key === 'End') {
      event.preventDefault()
      focusCell(category.emoji.length - 1)
    }
  }

  return (
    <DialogTrigger>
      <Button variant="ghost" icon aria-label={t`Emoji`} isDisabled={isDisabled} className="chat-input-tool chat-emoji-button">
        <SmileIcon />
      </Button>
      <Popover className="popover chat-emoji-popover" placement="top start">
        <Dialog className="chat-emoji-dialog" aria-label={t`Emoji`}>
          {({ close }) => (
            <>
              <div className="chat-emoji-categories" role="group" aria-label={t`Emoji categories`}>
                {emojiCategories.map((item) => (
                  <button
                    key={item.id}
                    type="button"
                    className="chat-emoji-category"
                    aria-pressed={item.id === categoryId}
                    aria-label={i18n._(item.label)}
                    title={i18n._(item.label)}
                    onClick={() => {
                      setCategoryId(item.id)
                      setActive(0)
                    }}
                  >
                    {item.icon}
                  </button>
                ))}
              </div>
              <div className="chat-emoji-grid" role="grid" aria-label={i18n._(category.label)} ref={grid} onKeyDown={onGridKey} style={{ gridTemplateColumns: `repeat(${COLUMNS}, 1fr)` }}>
                {Array.from({ length: Math.ceil(category.emoji.length / COLUMNS) }, (_, row) => (
                  <div role="row" key={row} className="chat-emoji-row">
                    {category.emoji.slice(row * COLUMNS, row * COLUMNS + COLUMNS).map((emoji, column) => {
                      const index = row * COLUMNS + column
                      return (
                        <span role="gridcell" key={emoji}>
                          <button
                            type="button"
                            className="chat-emoji"
                            tabIndex={index === active ? 0 : -1}
                            onFocus={() => setActive(index)}
                            onClick={() => {
                              onPick(emoji)
                              close()
                            }}
                          >
                            {emoji}
                          </button>
                        </span>
                      )
                    })}
                  </div>
                ))}
              </div>
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  )
}
