import { describe, expect, test } from 'bun:test'
import { videoWatchUrl, youtubeIdOf, youtubeThumbnailUrl } from './video.ts'

describe('help videos', () => {
  test('the YouTube id from a bare id or the usual addresses', () => {
    expect(youtubeIdOf('dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf(' dQw4w9WgXcQ ')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://m.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://youtu.be/dQw4w9WgXcQ?si=abc')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ')
    expect(youtubeIdOf('https://youtube.com/shorts/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ')
  })

  test('no id for other sites, malformed ids, empty values and other schemes', () => {
    expect(youtubeIdOf('')).toBeNull()
    expect(youtubeIdOf('short')).toBeNull()
    expect(youtubeIdOf('https://vimeo.com/123456789')).toBeNull()
    expect(youtubeIdOf('https://www.youtube.com/watch?v=tooShort')).toBeNull()
    expect(youtubeIdOf('https://www.youtube.com/channel/UCabcdefghijk')).toBeNull()
    expect(youtubeIdOf('https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull()
    expect(youtubeIdOf('javascript:alert(1)')).toBeNull()
  })

  test('thumbnail and watch address', () => {
    expect(youtubeThumbnailUrl('dQw4w9WgXcQ')).toBe('https://i.ytimg.com/vi/dQw4w9WgXcQ/mqdefault.jpg')
    expect(videoWatchUrl('dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
    expect(videoWatchUrl('https://youtu.be/dQw4w9WgXcQ')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
    expect(videoWatchUrl('https://vimeo.com/123456789')).toBe('https://vimeo.com/123456789')
    expect(videoWatchUrl('')).toBeNull()
    expect(videoWatchUrl('javascript:alert(1)')).toBeNull()
  })
})
