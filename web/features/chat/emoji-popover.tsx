// The emoji picker's popover (emoji-picker.tsx), in a chunk of its own: not first-load JS. It stays
// mounted while closed, so the chosen category is kept from one opening to the next, as before.
import { useLingui } from '@lingui/react/macro'
import { useRef, useState, type KeyboardEvent } from 'react'
import { Dialog, Popover } from 'react-aria-components'
import { DialogTriggerContexts } from '../../components/overlay-contexts.tsx'
import type { DialogTriggerHandle } from '../../components/overlay-trigger.tsx'
import { emojiCategories } from './emoji-data.ts'

const COLUMNS = 8

export function EmojiPopover({ trigger, onPick }: { trigger: DialogTriggerHandle; onPick: (emoji: string) => void }) {
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
    <DialogTriggerContexts trigger={trigger}>
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
    </DialogTriggerContexts>
  )
}
