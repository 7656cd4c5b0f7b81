// A help's `video` is a YouTube video id (11 characters) or an http(s) address (src/modules/helps/model.ts).
// From it: the YouTube id when there is one, its thumbnail, and the address to watch it.

const idPattern = /^[A-Za-z0-9_-]{11}$/

export function youtubeIdOf(video: string): string | null {
  const value = video.trim()
  if (idPattern.test(value)) return value
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.replace(/^(www\.|m\.)/, '')
  let candidate: string | null | undefined
  if (host === 'youtu.be') candidate = url.pathname.split('/')[1]
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const [first, second] = url.pathname.split('/').filter(Boolean)
    if (first === 'watch') candidate = url.searchParams.get('v')
    else if (first === 'embed' || first === 'shorts' || first === 'live' || first === 'v') candidate = second
  }
  return candidate && idPattern.test(candidate) ? candidate : null
}

/** YouTube's medium thumbnail (320x180), served for every public video. */
export function youtubeThumbnailUrl(id: string): string {
  return `https://i.ytimg.com/vi/${id}/mqdefault.jpg`
}

/** Where the video plays: YouTube for an id, else the address itself; null for no (usable) video. */
export function videoWatchUrl(video: string): string | null {
  const id = youtubeIdOf(video)
  if (id) return `https://www.youtube.com/watch?v=${id}`
  const value = video.trim()
  return /^https?:\/\/\S+$/.test(value) ? value : null
}
