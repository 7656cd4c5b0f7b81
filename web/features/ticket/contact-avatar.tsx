// The contact's picture, or its initials on a coloured disc when WhatsApp gave none (or it fails to load).
import { useState } from 'react'

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const letters = words.length > 1 ? [words[0]![0], words[words.length - 1]![0]] : [words[0]?.[0]]
  return letters.join('').toUpperCase() || '?'
}

export function ContactAvatar({ name, pictureUrl, size = 40 }: { name: string; pictureUrl: string; size?: number }) {
  const [broken, setBroken] = useState(false)
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) }
  if (pictureUrl && !broken) {
    return <img className="contact-avatar" src={pictureUrl} alt="" style={style} onError={() => setBroken(true)} />
  }
  return (
    <span className="contact-avatar contact-avatar-initials" aria-hidden="true" style={style}>
      {initialsOf(name)}
    </span>
  )
}
