// Reading the bodies of the special message types (spec §3): a location is "image|link|description"
// (the image a data: URL or empty), a vcard is one or more vCard texts one after the other.

export type Location = { imageUrl: string | null; link: string; description: string }

/** Only links a browser may open safely: http(s) for the map, data:image or http(s) for the picture. */
const isWebLink = (value: string) => /^https?:\/\//i.test(value)
const isImageSource = (value: string) => isWebLink(value) || /^data:image\/(png|jpe?g|webp|gif);base64,/i.test(value)

export function parseLocation(body: string): Location | null {
  const [image = '', link = '', ...rest] = body.split('|')
  const trimmedLink = link.trim()
  if (!isWebLink(trimmedLink)) return null
  const imageUrl = image.trim()
  return { imageUrl: imageUrl && isImageSource(imageUrl) ? imageUrl : null, link: trimmedLink, description: rest.join('|').trim() }
}

export type VcardContact = { name: string; numbers: string[] }

/** Unfolds continuation lines (RFC 6350 §3.2) and unescapes \, \; \n in values. */
function vcardLines(card: string): string[] {
  return card.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '').split('\n')
}

const unescape = (value: string) => value.replace(/\\n/gi, ' ').replace(/\\([,;\\])/g, '$1').trim()

/** Every contact of a vcard body; a body without BEGIN:VCARD yields nothing. */
export function parseVcards(body: string): VcardContact[] {
  const cards = body.split(/BEGIN:VCARD/i).slice(1)
  return cards.map((card) => {
    let name = ''
    let structuredName = ''
    const numbers: string[] = []
    for (const line of vcardLines(card)) {
      const colon = line.indexOf(':')
      if (colon < 0) continue
      const property = line.slice(0, colon).toUpperCase()
      const value = line.slice(colon + 1)
      const base = property.split(';')[0]!.replace(/^ITEM\d+\./, '')
      if (base === 'FN') name = unescape(value)
      else if (base === 'N') structuredName = unescape(value.split(';').filter(Boolean).reverse().join(' '))
      else if (base === 'TEL') {
        // WhatsApp puts the bare number in waid=; the value is the formatted one.
        const waid = /WAID=([0-9]+)/i.exec(property)?.[1]
        const number = unescape(value) || (waid ? `+${waid}` : '')
        if (number) numbers.push(number)
      }
    }
    return { name: name || structuredName, numbers }
  })
}
