// Date and money formats of §9: dd/MM/yyyy dates, BRL currency.

/** 'YYYY-MM-DD' (a calendar date from the API) as dd/MM/yyyy, without time-zone shifts. */
export function formatCalendarDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-')
  return year && month && day ? `${day}/${month}/${year}` : isoDate
}

/** Whole days from today (local) until a 'YYYY-MM-DD' date; 0 on the day itself, negative after it. */
export function daysUntil(isoDate: string, now = new Date()): number {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number)
  const target = Date.UTC(year!, month! - 1, day!)
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())
  return Math.round((target - today) / 86_400_000)
}

export function formatMoney(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value)
}
