// The one client for every request to a URL a tenant configured (webhooks, AI endpoints, queue
// integrations). It never retries: a caller that wants retries enqueues a job (jobs/queue.ts) whose
// handler calls this again, so backoff survives a restart with BullMQ and is visible in one place.
//
// What it guarantees on every hop, redirects included:
// - https only, unless OUTBOUND_ALLOW_HTTP;
// - the name is resolved here and every address it resolves to must be public (address-policy.ts),
//   unless the host (or address) is in OUTBOUND_ALLOWED_HOSTS;
// - the connection goes to the address that was checked (the URL's host is replaced by it, the Host
//   header and the TLS server name keep the name, so certificates are still verified against it):
//   a DNS answer that changes between the check and the connection (rebinding) cannot slip through;
// - one deadline for the whole exchange, and the response body read up to a cap.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { bareHost, isAllowlisted, isInternalAddress } from './address-policy.ts'

export type OutboundPolicy = {
  /** OUTBOUND_ALLOWED_HOSTS: hosts (or addresses) that may be internal: `host`, `host:port`, `*.domain`. */
  allowedHosts: readonly string[]
  /** OUTBOUND_ALLOW_HTTP: plain http allowed (https otherwise). */
  allowHttp: boolean
  /** Default deadline of a request, connection to last byte (ms). */
  timeoutMs: number
  /** Default cap of a response body (bytes). */
  maxResponseBytes: number
}

export type OutboundErrorKind = 'refused' | 'dns' | 'timeout' | 'too_large' | 'redirects' | 'network'

/** Why a request did not get a response. `refused`: the policy stopped it before any connection. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export type OutboundRequest = {
  url: string
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  headers?: Record<string, string>
  /** A string or bytes as given; see `json` for an object. */
  body?: string | Uint8Array<ArrayBuffer>
  /** Serialised as the body, with Content-Type application/json (unless headers name one). */
  json?: unknown
  timeoutMs?: number
  maxResponseBytes?: number
  /** Past the cap: `error` (default) fails with too_large; `truncate` keeps the first bytes (a log excerpt). */
  onOversize?: 'error' | 'truncate'
  /** Redirects followed, each checked like the first URL (default 3; 0: a 3xx is the answer). */
  maxRedirects?: number
  signal?: AbortSignal
}

export type OutboundResponse = {
  status: number
  ok: boolean
  headers: Headers
  /** The URL that answered (after redirects). */
  url: string
  body: Uint8Array
  /** True when the body was cut at the cap (onOversize: truncate). */
  truncated: boolean
  latencyMs: number
  text(): string
  json(): unknown
}

/** Resolves a name to its addresses; tests hand their own to play a name that points at loopback. */
export type Resolver = (hostname: string) => Promise<string[]>

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)

/** A URL for logs: no credentials, no query string (tokens often travel there). */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw)
    return `${url.protocol}//${url.host}${url.pathname}`
  } catch {
    return '[invalid url]'
  }
}

type Vetted = { url: URL; address: string }

async function vet(policy: OutboundPolicy, resolve: Resolver | undefined, url: URL): Promise<Vetted> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) throw new OutboundError('refused', `scheme ${url.protocol} is not allowed`)
  const host = bareHost(url.hostname)
  if (!host) throw new OutboundError('refused', 'the URL has no host')
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else if (!resolve) {
    // Without resolving, only the names that are loopback by definition (RFC 6761) are known internal.
    if ((host === 'localhost' || host.endsWith('.localhost')) && !isAllowlisted(policy.allowedHosts, { host, port: url.port })) {
      throw new OutboundError('refused', `${host} is an internal address`)
    }
    return { url, address: host }
  }
  else {
    try {
      addresses = await resolve(host)
    } catch {
      throw new OutboundError('dns', `${host} could not be resolved`)
    }
    if (addresses.length === 0) throw new OutboundError('dns', `${host} has no address`)
  }
  if (!isAllowlisted(policy.allowedHosts, { host, port: url.port, addresses })) {
    // Every answer must be public: with a mix, which one a later connection would use is not ours to pick.
    const internal = addresses.find(isInternalAddress)
    if (internal !== undefined) throw new OutboundError('refused', `${host} resolves to an internal address`)
  }
  return { url, address: addresses[0]! }
}

async function readCapped(response: Response, cap: number, onOversize: 'error' | 'truncate'): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(0), truncated: false }
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (onOversize === 'error' && Number.isFinite(declared) && declared > cap) {
    await response.body.cancel()
    throw new OutboundError('too_large', `the response is larger than ${cap} bytes`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (size + value.byteLength > cap) {
      await reader.cancel()
      if (onOversize === 'error') throw new OutboundError('too_large', `the response is larger than ${cap} bytes`)
      chunks.push(value.subarray(0, cap - size))
      size = cap
      return { body: Buffer.concat(chunks), truncated: true }
    }
    chunks.push(value)
    size += value.byteLength
  }
  return { body: Buffer.concat(chunks), truncated: false }
}

/** The request as sent on one hop: to the vetted address, naming the host in Host and in TLS. */
function pinnedFetch(hop: Vetted, init: { method: string; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer>; signal: AbortSignal }): Promise<Response> {
  const target = new URL(hop.url)
  target.hostname = isIP(hop.address) === 6 ? `[${hop.address}]` : hop.address
  return fetch(target, {
    method: init.method,
    headers: { ...init.headers, host: hop.url.host },
    body: init.body,
    redirect: 'manual',
    signal: init.signal,
    tls: hop.url.protocol === 'https:' ? { serverName: bareHost(hop.url.hostname) } : undefined,
  })
}

function failureOf(error: unknown, deadline: AbortSignal): OutboundError {
  if (error instanceof OutboundError) return error
  if (deadline.aborted) return new OutboundError('timeout', 'the request timed out')
  return new OutboundError('network', error instanceof Error ? error.message : String(error))
}

export function createOutboundClient(policy: OutboundPolicy, options: { resolve?: Resolver } = {}) {
  const resolve = options.resolve ?? systemResolver

  async function request(input: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now()
    const deadline = AbortSignal.timeout(input.timeoutMs ?? policy.timeoutMs)
    const signal = input.signal ? AbortSignal.any([deadline, input.signal]) : deadline
    const headers: Record<string, string> = { ...input.headers }
    let body = input.body
    if (input.json !== undefined) {
      body = JSON.stringify(input.json)
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json'
    }
    let method: string = input.method ?? (body === undefined ? 'GET' : 'POST')
    let url: URL
    try {
      url = new URL(input.url)
    } catch {
      throw new OutboundError('refused', 'not a valid URL')
    }
    const maxRedirects = input.maxRedirects ?? 3
    try {
      for (let hop = 0; ; hop++) {
        const vetted = await vet(policy, resolve, url)
        const response = await pinnedFetch(vetted, { method, headers, body, signal })
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location && maxRedirects > 0) {
          await response.body?.cancel()
          if (hop >= maxRedirects) throw new OutboundError('redirects', `more than ${maxRedirects} redirects`)
          url = new URL(location, url)
          // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
            method = 'GET'
            body = undefined
            for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name]
          }
          continue
        }
        const read = await readCapped(response, input.maxResponseBytes ?? policy.maxResponseBytes, input.onOversize ?? 'error')
        const latencyMs = Math.round(performance.now() - started)
        return {
          status: response.status,
          ok: response.ok,
          headers: response.headers,
          url: url.toString(),
          body: read.body,
          truncated: read.truncated,
          latencyMs,
          text: () => new TextDecoder().decode(read.body),
          json: () => JSON.parse(new TextDecoder().decode(read.body)) as unknown,
        }
      }
    } catch (error) {
      throw failureOf(error, deadline)
    }
  }

  return {
    request,
    /** POST a JSON body; the answer as it came (the caller decides what a non-2xx means). */
    postJson: (url: string, json: unknown, options: Omit<OutboundRequest, 'url' | 'json' | 'method' | 'body'> = {}) => request({ ...options, url, json, method: 'POST' }),
    getJson: (url: string, options: Omit<OutboundRequest, 'url' | 'json' | 'method' | 'body'> = {}) =>
      request({ ...options, url, method: 'GET', headers: { accept: 'application/json', ...options.headers } }),
    /**
     * Checks a URL against the policy without sending anything, for a form's validation: the scheme, and
     * the address when the host is one. Names are not resolved here (DNS can change; every request checks).
     */
    async check(raw: string): Promise<void> {
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        throw new OutboundError('refused', 'not a valid URL')
      }
      await vet(policy, undefined, url)
    },
  }
}

export type OutboundClient = ReturnType<typeof createOutboundClient>
