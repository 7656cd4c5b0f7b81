// The media part of a bubble (§3 media types): images open enlarged, audio and video play in place,
// documents are links, a location links to the map, a vcard shows name and number, a call is a note.
// Media links are the API's signed, expiring URLs (MessageView.mediaUrl).
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import type { ChatMessage } from './chat-message.ts'
import { ContactCardIcon, FileIcon, MapPinIcon, PhoneIcon } from './chat-icons.tsx'
import { parseLocation, parseVcards } from './message-content.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { mediaDownloadFailed } from './media-state.ts'

/** Whether the body is part of the media itself (so not shown again as a caption). */
export function bodyIsMedia(message: ChatMessage): boolean {
  return message.mediaType === 'locationMessage' || message.mediaType === 'vcard' || message.mediaType === 'call_log'
}

function ImageMedia({ url, name }: { url: string; name: string }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="chat-image-button" onClick={() => setOpen(true)} aria-label={t`Enlarge image ${name}`}>
        <img className="chat-image" src={url} alt={name} loading="lazy" />
      </button>
      <Dialog title={name} isOpen={open} onOpenChange={setOpen}>
        <img className="chat-image-large" src={url} alt={name} />
        <div className="dialog-actions">
          <a className="button button-secondary" href={url} target="_blank" rel="noreferrer" download={name}>{t`Download`}</a>
          <Button variant="primary" onPress={() => setOpen(false)}>{t`Close`}</Button>
        </div>
      </Dialog>
    </>
  )
}

export function MessageMedia({ message }: { message: ChatMessage }) {
  const { t, i18n } = useLingui()
  const url = message.mediaUrl
  const name = message.mediaName ?? ''
  // The file never arrived: the §8 text of the code, translated.
  if (mediaDownloadFailed(message)) return <p className="chat-media-error">{errorMessage(i18n, message.sendError!)}</p>
  switch (message.mediaType) {
    case 'image':
    case 'sticker':
      return url ? <ImageMedia url={url} name={name || t`Image`} /> : null
    case 'audio':
      return url ? <audio className="chat-audio" controls preload="metadata" src={url} aria-label={t`Audio message`} /> : null
    case 'video':
      return url ? <video className="chat-video" controls preload="metadata" src={url} aria-label={name || t`Video`} /> : null
    case 'application':
      return url ? (
        <a className="chat-document" href={url} target="_blank" rel="noreferrer" download={name || undefined}>
          <FileIcon />
          <span>{name || t`Download file`}</span>
        </a>
      ) : null
    case 'locationMessage': {
      const location = parseLocation(message.body)
      if (!location) return <p className="chat-text">{message.body}</p>
      return (
        <a className="chat-location" href={location.link} target="_blank" rel="noreferrer">
          {location.imageUrl ? <img src={location.imageUrl} alt="" className="chat-location-image" /> : <MapPinIcon className="chat-location-pin" />}
          <span>{location.description || t`View location on the map`}</span>
        </a>
      )
    }
    case 'vcard': {
      const cards = parseVcards(message.body)
      if (cards.length === 0) return <p className="chat-text">{message.body}</p>
      return (
        <ul className="chat-vcards">
          {cards.map((card, index) => (
            <li key={index} className="chat-vcard">
              <ContactCardIcon />
              <span>
                <strong>{card.name || t`Contact`}</strong>
                {card.numbers.map((number) => (
                  <span key={number} className="chat-vcard-number">{number}</span>
                ))}
              </span>
            </li>
          ))}
        </ul>
      )
    }
    case 'call_log':
      return (
        <p className="chat-call">
          <PhoneIcon />
          <span>{message.body || t`Voice or video call`}</span>
        </p>
      )
    default:
      return null
  }
}
