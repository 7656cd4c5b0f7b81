// The API with the signed-in session (bearer token, refresh on expiry): see session.ts.
import { treaty } from '@elysiajs/eden'
import type { App } from '../../src/app.ts'
import { sessionFetch } from './session.ts'

export const api = treaty<App>(location.origin, { parseDate: false, fetcher: sessionFetch, fetch: { credentials: 'include' } }).api
