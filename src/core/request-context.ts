// Who is behind the code running now, for listeners that record it (the audit log): the client's
// address and user agent, set when a request arrives, and the signed-in user, added by the tenant
// plugin once the token is checked. AsyncLocalStorage follows the request through its awaits, so a
// service's `bus.emit` (listeners run synchronously in the emitter's context) sees it without every
// service and event payload carrying an actor. Outside a request (jobs, boot) there is none.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Server } from 'bun'
import { Elysia } from 'elysia'
import { clientIp } from './request.ts'

export type RequestContext = { ip: string; userAgent: string; userId?: number; companyId?: number }

const storage = new AsyncLocalStorage<RequestContext>()

/**
 * Runs one request's handling inside its context (the app wraps its handler with it). run, not
 * enterWith: a test calling app.handle directly would otherwise keep the context on its own stack.
 */
export function runInRequestContext<Result>(context: RequestContext, work: () => Result): Result {
  return storage.run(context, work)
}

/** The tenant plugin names the signed-in user on the request's context. */
export function setRequestActor(actor: { userId: number; companyId: number }): void {
  const context = storage.getStore()
  if (context) {
    context.userId = actor.userId
    context.companyId = actor.companyId
  }
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore()
}

/**
 * The Elysia plugin that runs every request of the app using it inside its context. `server` gives
 * the client's address when the app listens (in-process calls have none).
 */
export const requestContext = (options: { trustProxy: number; server: () => Server<unknown> | null }) =>
  new Elysia({ name: 'request-context' }).wrap(
    (handle, request) =>
      (...args: unknown[]) =>
        runInRequestContext({ ip: clientIp(request, options.server(), options.trustProxy), userAgent: (request.headers.get('user-agent') ?? '').slice(0, 300) }, () => handle(...args)),
  )
