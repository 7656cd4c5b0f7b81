// The API without a session: sign-in, refresh, signup, plans, password reset (§7 "a second client
// without credentials serves the public plan list"). Same origin, so the refresh cookie still flows.
import { treaty } from '@elysiajs/eden'
import type { App } from '../../src/app.ts'

// parseDate off: calendar dates such as dueDate stay 'YYYY-MM-DD' strings.
export const publicApi = treaty<App>(location.origin, { parseDate: false }).api
