// The texts of the chatbot's menus: "*1* - Vendas" lines under an optional header.
export const backOption = '0'
export const startOption = '#'

export type MenuEntry = { key: string; title: string }

/** Header (greeting or the option's message) then the numbered entries; navigation lines below submenus. */
export function menuText(input: { header: string; entries: readonly MenuEntry[]; navigation: boolean }): string {
  const lines = input.entries.map((entry) => `*${entry.key}* - ${entry.title}`)
  if (input.navigation) lines.push(`*${backOption}* - Voltar`, `*${startOption}* - Menu inicial`)
  const header = input.header.trim()
  return header === '' ? lines.join('\n') : `${header}\n\n${lines.join('\n')}`
}

/** The customer's reply reduced to what menus compare: trimmed, a trailing dot or bracket tolerated. */
export function menuReply(body: string): string {
  return body.trim().replace(/^\*(.*)\*$/, '$1').replace(/[.)]$/, '').trim()
}
