// The conversation of a ticket (§2 Tickets, "The message list"): newest page on open, older pages
// when scrolled near the top (scrollTop < 50, §9) keeping the view where it was, day separators,
// a marker where the conversation began, and live changes from realtime.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { formatCalendarDate } from '../../i18n/format.ts'
import { onLocalMessage } from './local-messages.ts'
import { MessageBubble, messageElementId } from './message-bubble.tsx'
import { buildTimeline, dayKey } from './timeline.ts'
import { useTicketMessages } from './use-ticket-messages.ts'
import '../../styles/chat.css'

/** §9: the next (older) page loads when scrollTop is under 50. */
export const LOAD_OLDER_BELOW = 50
/** Within this distance of the bottom the list follows new messages. */
const NEAR_BOTTOM = 120

export function MessagesList({ ticket }: { ticket: TicketView }) {
  const { t } = useLingui()
  const { messages, hasOlder, loadingFirst, loadingOlder, failed, loadOlder, apply, lastChange } = useTicketMessages(ticket.id)
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLOListElement>(null)
  const nearBottom = useRef(true)
  /** Scroll height and top just before an older page was asked for, to keep the view in place. */
  const anchor = useRef<{ height: number; top: number } | null>(null)
  const timeline = useMemo(() => buildTimeline(messages, { hasOlder }), [messages, hasOlder])

  useEffect(() => onLocalMessage(apply), [apply])

  const requestOlder = () => {
    const element = scroller.current
    if (!element || !hasOlder || loadingOlder) return
    anchor.current = { height: element.scrollHeight, top: element.scrollTop }
    void loadOlder()
  }

  const onScroll = () => {
    const element = scroller.current
    if (!element) return
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM
    if (element.scrollTop < LOAD_OLDER_BELOW) requestOlder()
  }

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    if (lastChange.kind === 'older' && anchor.current) {
      // The page went in above: move down by what it added, so the same messages stay in view.
      element.scrollTop = element.scrollHeight - anchor.current.height + anchor.current.top
      anchor.current = null
    } else if (lastChange.kind === 'first' || nearBottom.current) {
      element.scrollTop = element.scrollHeight
      nearBottom.current = true
    }
    // A first page shorter than the view cannot be scrolled up: ask for the next one at once.
    if (lastChange.kind !== 'live' && hasOlder && element.scrollHeight <= element.clientHeight) requestOlder()
    // Only a change of messages moves the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastChange])

  // Images and players take their height after loading, and the input grows (rows, files, quick
  // replies) shrinking the view: either way, stay at the bottom when the view was there.
  useEffect(() => {
    const element = scroller.current
    const list = content.current
    if (!element || !list || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (nearBottom.current && !anchor.current) element.scrollTop = element.scrollHeight
    })
    observer.observe(list)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const scrollToMessage = (id: number) => {
    const target = document.getElementById(messageElementId(id))
    if (!target) return
    target.scrollIntoView({ block: 'center', behavior: 'smooth' })
    target.classList.add('chat-bubble-highlight')
    window.setTimeout(() => target.classList.remove('chat-bubble-highlight'), 1600)
  }

  const today = dayKey(new Date())
  const yesterday = dayKey(new Date(Date.now() - 86_400_000))
  const dayLabel = (day: Date) => {
    const key = dayKey(day)
    if (key === today) return t`Today`
    if (key === yesterday) return t`Yesterday`
    return formatCalendarDate(key)
  }

  return (
    <div className="chat-messages" ref={scroller} onScroll={onScroll} data-ticket={ticket.id} data-loading={loadingFirst || undefined}>
      {loadingOlder ? <p className="chat-status" role="status">{t`Loading older messages…`}</p> : null}
      {loadingFirst ? <p className="chat-status" role="status">{t`Loading messages…`}</p> : null}
      {failed ? <p className="chat-status chat-status-error" role="alert">{t`The messages could not be loaded.`}</p> : null}
      {!loadingFirst && !failed && messages.length === 0 ? <p className="chat-status">{t`No messages yet.`}</p> : null}
      <ol className="chat-timeline" ref={content} role="log" aria-label={t`Messages`} aria-live="polite" aria-relevant="additions">
        {timeline.map((item) => {
          if (item.kind === 'day') {
            return (
              <li key={item.key} className="chat-day" role="separator" aria-label={dayLabel(item.day)}>
                <span>{dayLabel(item.day)}</span>
              </li>
            )
          }
          if (item.kind === 'conversation') {
            const time = `${String(item.startedAt.getHours()).padStart(2, '0')}:${String(item.startedAt.getMinutes()).padStart(2, '0')}`
            return (
              <li key={item.key} className="chat-conversation-start" data-ticket={item.ticketId}>
                <span>{t`Conversation started at ${time}`}</span>
              </li>
            )
          }
          return (
            <li key={item.key} className="chat-item">
              <MessageBubble message={item.message} ticket={ticket} onQuoteClick={scrollToMessage} />
            </li>
          )
        })}
      </ol>
    </div>
  )
}
