// The dashboard page's pure rules (§5, §9): the filter a request is built from, the default range
// (the first of the month to today), and times shown as HH'h' mm'm'.

/** §9's periods in days; 0 is "none" (filter by dates). */
export const PERIODS = [0, 3, 7, 15, 30, 60, 90] as const

export type DashboardFilter = { period: number; dateFrom: string; dateTo: string }

/** A day of the browser's calendar as yyyy-MM-dd. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** §9: the default range runs from the first of the month to today. */
export function defaultFilter(today: Date = new Date()): DashboardFilter {
  const day = localDay(today)
  return { period: 0, dateFrom: `${day.slice(0, 8)}01`, dateTo: day }
}

export type DashboardRequest = { days?: number; date_from?: string; date_to?: string }

/** The query of GET /dashboard; null when §5's rule fails (no period and no date: the page toasts selectFilterError). */
export function requestOf(filter: DashboardFilter): DashboardRequest | null {
  if (filter.period > 0) return { days: filter.period }
  if (!filter.dateFrom && !filter.dateTo) return null
  return { ...(filter.dateFrom ? { date_from: filter.dateFrom } : {}), ...(filter.dateTo ? { date_to: filter.dateTo } : {}) }
}

/** Minutes as HH'h' mm'm' (§9): 46.67 is "00h 47m", 1505 is "25h 05m". */
export function formatMinutes(minutes: number): string {
  const total = Math.max(0, Math.round(minutes))
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${pad(Math.floor(total / 60))}h ${pad(total % 60)}m`
}

/** A rating 0-3 as whole stars (§9), rounded to the nearest. */
export function starsOf(rating: number): number {
  return Math.max(0, Math.min(3, Math.round(rating)))
}
