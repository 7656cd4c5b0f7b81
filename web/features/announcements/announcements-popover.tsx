// The top bar's announcements popover (§2 Main layout): the active announcements, the most urgent first,
// each with its priority colour (1 red, 2 orange, 3 grey), text and image; the badge counts them.
// Loaded once (GET /announcements/ answers non-super users with the active ones only), then live from
// `company-announcement`.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { AnnouncementIcon } from '../../components/icons.tsx'
import { useUnprefixedChannel } from '../../hooks/use-channel.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { FeedPopover } from '../notifications/feed-popover.tsx'
import { applyAnnouncementFrame, toAnnouncementRow, byUrgency, priorityClass, type AnnouncementRow } from './announcement-row.ts'
import { priorityLabel } from './priority-label.ts'

export function AnnouncementsPopover() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const socket = useAtomValue(realtimeSocketAtom)
  const [rows, setRows] = useState<AnnouncementRow[]>([])

  const load = useCallback(() => {
    api.announcements
      .get({ query: {} })
      .then(({ data }) => data && setRows(byUrgency(data.records.filter((record) => record.status).map(toAnnouncementRow))))
      .catch(() => {
        // Offline: the list fills from the realtime frames.
      })
  }, [])
  useEffect(() => {
    if (user) load()
  }, [user, load])
  useEffect(() => socket?.onReconnect(load), [socket, load])
  useUnprefixedChannel('company-announcement', (frame) => setRows((current) => applyAnnouncementFrame(current, frame)))

  const count = rows.length
  return (
    <FeedPopover
      id="announcements-heading"
      label={t`Announcements`}
      buttonLabel={count > 0 ? t`Announcements (${count})` : t`Announcements`}
      icon={<AnnouncementIcon />}
      count={count}
      emptyText={t`No announcements.`}
      isEmpty={count === 0}
    >
      <ul className="notifications-list announcements-feed">
        {rows.map((row) => (
          <li key={row.id} className={`announcement-item ${priorityClass(row.priority)}`}>
            <div className="announcement-head">
              <span className="notification-name">{row.title}</span>
              <span className={`chip priority-chip ${priorityClass(row.priority)}`}>{i18n._(priorityLabel(row.priority))}</span>
            </div>
            <p className="announcement-text">{row.text}</p>
            {row.mediaUrl ? <img className="announcement-image" src={row.mediaUrl} alt={row.mediaName ?? ''} loading="lazy" /> : null}
            <span className="notification-time">{formatDateTime(row.createdAt)}</span>
          </li>
        ))}
      </ul>
    </FeedPopover>
  )
}
