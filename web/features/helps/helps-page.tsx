// /helps (§2 Other screens "Help"): a grid of video cards (thumbnail, title, description); a card opens
// a modal with the video, which Escape closes. The page's CSP allows no frames from other origins
// (src/web/pages.ts), so the modal shows the thumbnail as a link that plays the video on YouTube.
// Live: the help videos super users add, edit or remove arrive on the platform channel `helps`.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import type { Help } from '../../../src/modules/helps/model.ts'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { HelpIcon, PlayIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { useHeardWhileLoading } from '../../hooks/heard-while-loading.ts'
import { applyOp, type ListOp } from '../../hooks/paged-list-ops.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { videoWatchUrl, youtubeIdOf, youtubeThumbnailUrl } from './video.ts'

type HelpCard = Omit<Help, 'createdAt' | 'updatedAt'>

/** The grid's order, as GET /helps/list gives it: by title. */
function byTitle(first: HelpCard, second: HelpCard): number {
  return first.title.localeCompare(second.title) || first.id - second.id
}

function Thumbnail({ help }: { help: HelpCard }) {
  const id = youtubeIdOf(help.video)
  if (!id) {
    return (
      <span className="help-thumbnail help-thumbnail-empty" aria-hidden="true">
        <HelpIcon />
      </span>
    )
  }
  return <img className="help-thumbnail" src={youtubeThumbnailUrl(id)} alt="" loading="lazy" width={320} height={180} />
}

function HelpVideo({ help }: { help: HelpCard }) {
  const { t } = useLingui()
  const videoId = youtubeIdOf(help.video)
  const watchUrl = videoWatchUrl(help.video)
  const title = help.title
  return (
    <div className="help-video">
      {videoId ? (
        // The privacy-enhanced player: no cookies until the video plays. The page's CSP allows frames from it only.
        <iframe
          className="help-video-frame"
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}`}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
        />
      ) : watchUrl ? (
        <a className="help-video-link" href={watchUrl} target="_blank" rel="noopener noreferrer" aria-label={t`Watch ${title} (opens in a new tab)`}>
          <Thumbnail help={help} />
          <span className="help-play" aria-hidden="true">
            <PlayIcon />
          </span>
        </a>
      ) : (
        <p className="muted-note">{t`This help has no video.`}</p>
      )}
      {help.description ? <p className="help-description-full">{help.description}</p> : null}
    </div>
  )
}

export function HelpsPage() {
  const { t, i18n } = useLingui()
  const [helps, setHelps] = useState<HelpCard[] | null>(null)
  // The last help opened stays while the modal closes, so its title does not vanish mid-animation.
  const [selected, setSelected] = useState<HelpCard | null>(null)
  const [isOpen, setIsOpen] = useState(false)

  const socket = useAtomValue(realtimeSocketAtom)
  // Frames heard while the list travels are applied again to it (the server may have read it before them).
  const listHeard = useHeardWhileLoading<HelpCard[] | null>()

  const load = useCallback(
    (isCurrent: () => boolean = () => true) => {
      listHeard.start()
      const failed = (failure: unknown) => {
        if (!isCurrent()) return
        listHeard.drop()
        // §8: the help list shows its errorList toast; the server's reason goes to the console.
        console.warn('help list', errorMessage(i18n, apiErrorOf(failure).code))
        showToast('error', t`Could not load the list.`)
        setHelps((current) => current ?? [])
      }
      return api.helps.list
        .get()
        .then(({ data, error }) => {
          if (!isCurrent()) return
          if (error || !data) return failed(error)
          setHelps(listHeard.finish(data.slice().sort(byTitle)))
        })
        .catch(failed)
    },
    [i18n, listHeard, t],
  )
  useEffect(() => {
    let live = true
    void load(() => live)
    return () => {
      live = false
    }
  }, [load])
  // Frames sent while the socket was down are lost: read again after a reconnect.
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  useChannel('helps', (event) => {
    const op: ListOp<HelpCard> = event.action === 'delete' ? { kind: 'remove', id: event.helpId } : { kind: 'upsert', item: event.help, prepend: false }
    setHelps(listHeard.heard((current) => (current === null ? current : applyOp(current, op).sort(byTitle))))
    // An open video follows its edit.
    if (event.action === 'update') setSelected((current) => (current?.id === event.help.id ? event.help : current))
  })

  return (
    <div className="admin-page">
      <PageHeader title={t`Help`} />
      {helps === null ? (
        <p className="muted-note" role="status">
          {t`Loading…`}
        </p>
      ) : helps.length === 0 ? (
        <p className="muted-note">{t`No help videos yet.`}</p>
      ) : (
        <ul className="help-grid" aria-label={t`Help videos`}>
          {helps.map((help) => (
            <li key={help.id}>
              <Button variant="ghost" className="help-card" onPress={() => {
                  setSelected(help)
                  setIsOpen(true)
                }}>
                <Thumbnail help={help} />
                <span className="help-card-title">{help.title}</span>
                {help.description ? <span className="help-card-description">{help.description}</span> : null}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog title={selected?.title ?? ''} isOpen={isOpen} onOpenChange={setIsOpen} size="large">
        {selected ? <HelpVideo help={selected} /> : null}
        <div className="dialog-actions">
          <Button variant="secondary" onPress={() => setIsOpen(false)}>
            {t`Close`}
          </Button>
        </div>
      </Dialog>
    </div>
  )
}
