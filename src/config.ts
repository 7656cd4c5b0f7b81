// Every environment variable the product reads, parsed and typed in one place.
// Nothing else in the code reads process.env.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'

function integerFrom(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`)
  return value
}

function flagFrom(name: string, fallback: boolean): boolean {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())
}

/** TRUST_PROXY: off (0) by default; 1/true/yes/on means one proxy; a number N means N proxies in a row. */
function proxyHopsFrom(name: string): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return 0
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return 1
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return 0
  return integerFrom(name, 0)
}

function optional(name: string): string | undefined {
  const raw = process.env[name]
  return raw === undefined || raw === '' ? undefined : raw
}

/** A comma-separated list, trimmed, lower-cased; the fallback when unset. */
function listFrom(name: string, fallback: string[]): string[] {
  const raw = optional(name)
  if (!raw) return fallback
  return raw
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
}

/** A secret from the environment, or one generated once and kept in the data directory. */
function secretFrom(name: string, dataDir: string): string {
  const given = optional(name)
  if (given) return given
  const file = join(dataDir, 'secrets', name.toLowerCase())
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 })
  const generated = randomBytes(48).toString('base64url')
  writeFileSync(file, generated, { mode: 0o600 })
  return generated
}

/** What a `zapdesk serve` process does (README "Run in production"). */
export const ROLES = ['all', 'web', 'worker'] as const
export type Role = (typeof ROLES)[number]

function roleFrom(name: string): Role {
  const raw = optional(name)?.toLowerCase() ?? 'all'
  if (!(ROLES as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${ROLES.join(', ')}, got "${raw}"`)
  return raw as Role
}

export function loadConfig() {
  const dataDir = resolve(optional('DATA_DIR') ?? 'data')
  const port = integerFrom('PORT', 8080)
  const jwtSecret = secretFrom('JWT_SECRET', dataDir)
  return {
    port,
    host: optional('HOST') ?? '0.0.0.0',
    publicUrl: (optional('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/$/, ''),
    /** CORS_ORIGINS: the other origins whose web clients may call the API with credentials (comma-separated). */
    corsOrigins: listFrom('CORS_ORIGINS', []),
    /**
     * LEGACY_CLIENT_ERRORS: answer in the form a Whaticket-family web client parses where it clashes with
     * ours. Today one case: ERR_OTHER_OPEN_TICKET carries the open ticket JSON-encoded in `error` (that
     * client runs JSON.parse on it) and the code in `code`. Our web app reads both forms.
     */
    legacyClientErrors: flagFrom('LEGACY_CLIENT_ERRORS', false),
    /**
     * ZAPDESK_ROLE (or `serve --role`): `all` does everything; `web` serves HTTP and websockets and runs
     * neither sessions nor jobs; `worker` runs the WhatsApp sessions and the jobs and serves only
     * /health and /metrics. web and worker need PostgreSQL and Redis (main.ts says so at start).
     */
    role: roleFrom('ZAPDESK_ROLE'),
    /** On SIGTERM/SIGINT: the longest a graceful stop takes before the process exits anyway (ms). */
    shutdownTimeoutMs: Math.max(1, integerFrom('SHUTDOWN_TIMEOUT_MS', 8_000)),
    databaseUrl: optional('DATABASE_URL'),
    redisUrl: optional('REDIS_URL'),
    /** Prefix of every Redis key and channel, so that several installations can share one Redis. */
    redisPrefix: optional('REDIS_PREFIX') ?? 'zapdesk:',
    dataDir,
    adminPassword: optional('ADMIN_PASSWORD'),
    whatsappSimulator: flagFrom('WHATSAPP_SIMULATOR', false),
    /** The simulator's outbox journal: its sends survive a restart (kill -9 tests, benchmarks). */
    simulatorOutboxFile: optional('SIMULATOR_OUTBOX_FILE'),
    /** How often running and due campaigns are looked for (a dead run's campaign is taken up then). */
    campaignSweepMs: Math.max(1, integerFrom('CAMPAIGN_SWEEP_SECONDS', 15)) * 1000,
    /** How long a campaign's dispatcher holds it unrenewed: after a crash, another takes over after this. */
    campaignLeaseMs: Math.max(2, integerFrom('CAMPAIGN_LEASE_SECONDS', 30)) * 1000,
    /** With REDIS_URL: how long a WhatsApp session's lease lasts unrenewed (renewed every third of it). */
    whatsappLeaseSeconds: Math.max(1, integerFrom('WHATSAPP_LEASE_SECONDS', 30)),
    jwtSecret,
    /**
     * Seals secrets stored in the database (TOTP secrets, webhook signing secrets, AI and integration keys). Absent: derived from JWT_SECRET, which is
     * fine for one installation but ties the two; set it so that rotating JWT_SECRET keeps 2FA working.
     */
    secretsKey: optional('SECRETS_KEY') ?? `derived:${createHash('sha256').update(`zapdesk-secrets:${jwtSecret}`).digest('base64url')}`,
    accessTokenMinutes: integerFrom('ACCESS_TOKEN_MINUTES', 15),
    refreshTokenDays: integerFrom('REFRESH_TOKEN_DAYS', 7),
    media: {
      /** Largest upload accepted, in bytes (16 MiB: WhatsApp's limit for photos, audio and video). */
      maxBytes: integerFrom('MEDIA_MAX_BYTES', 16 * 1024 * 1024),
      /** Signs the /public media URLs, so that a file is reachable only through a link the API handed out. */
      urlSecret: secretFrom('MEDIA_URL_SECRET', dataDir),
      urlTtlSeconds: integerFrom('MEDIA_URL_TTL_SECONDS', 24 * 3600),
      /**
       * With PUBLIC_URL set, media links are absolute on it, so that a web client served from another
       * origin (CORS_ORIGINS) loads them from here; without it they stay relative to the page's origin.
       */
      linkBase: (optional('PUBLIC_URL') ?? '').replace(/\/$/, ''),
      /**
       * Hosts inbound WhatsApp media may be fetched from, over https on the default port: the sender
       * names the URL, so anything else (loopback, the LAN, metadata endpoints) is refused.
       * `*.whatsapp.net` means the domain and its subdomains.
       */
      allowedHosts: listFrom('MEDIA_ALLOWED_HOSTS', ['mmg.whatsapp.net', '*.whatsapp.net']),
      /** Until a media download has its response headers, then until it has the whole file (ms). */
      downloadConnectTimeoutMs: integerFrom('MEDIA_DOWNLOAD_CONNECT_TIMEOUT_MS', 10_000),
      downloadTimeoutMs: integerFrom('MEDIA_DOWNLOAD_TIMEOUT_MS', 120_000),
    },
    /**
     * Requests to URLs a tenant configured (webhooks, AI endpoints, integrations: core/http/guarded-fetch.ts).
     * https only and never to internal addresses (loopback, private, link-local, metadata, CGNAT), except
     * the hosts listed in OUTBOUND_ALLOWED_HOSTS (`host`, `host:port`, `*.domain`, an IP), e.g. an n8n on
     * the LAN; OUTBOUND_ALLOW_HTTP=true also allows plain http.
     */
    outbound: {
      allowedHosts: listFrom('OUTBOUND_ALLOWED_HOSTS', []),
      allowHttp: flagFrom('OUTBOUND_ALLOW_HTTP', false),
      timeoutMs: integerFrom('OUTBOUND_TIMEOUT_MS', 10_000),
      maxResponseBytes: integerFrom('OUTBOUND_MAX_RESPONSE_BYTES', 1024 * 1024),
    },
    /**
     * AI prompts (modules/ai-answers): the OpenAI-compatible API a prompt without its own base URL calls
     * (OPENAI_BASE_URL, e.g. a self-hosted model's http://llm.lan:8000/v1, which then needs
     * OUTBOUND_ALLOWED_HOSTS). Calls go through the outbound client, under OPENAI_TIMEOUT_MS.
     */
    openai: {
      baseUrl: (optional('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1').replace(/\/$/, ''),
      timeoutMs: integerFrom('OPENAI_TIMEOUT_MS', 30_000),
    },
    /** Dialogflow ES for queue integrations: its API's base (DIALOGFLOW_API_URL, a regional endpoint or a test server). */
    dialogflow: {
      baseUrl: (optional('DIALOGFLOW_API_URL') ?? 'https://dialogflow.googleapis.com').replace(/\/$/, ''),
    },
    /** Company webhooks (modules/webhooks): retries with exponential backoff, then the webhook is disabled. */
    webhooks: {
      /** First retry delay; it doubles each time, up to six hours between tries. */
      retryBaseMs: integerFrom('WEBHOOK_RETRY_BASE_MS', 30_000),
      /** How long a delivery is retried before it is given up. */
      retryWindowMs: integerFrom('WEBHOOK_RETRY_WINDOW_MINUTES', 24 * 60) * 60_000,
      /** A webhook is disabled (its admins e-mailed) after this many failed tries in a row ... */
      disableAfterFailures: Math.max(1, integerFrom('WEBHOOK_DISABLE_AFTER_FAILURES', 20)),
      /** ... spanning at least this long: a short outage with many events does not disable it. */
      disableAfterMs: integerFrom('WEBHOOK_DISABLE_AFTER_MINUTES', 12 * 60) * 60_000,
    },
    /** Largest JSON (or other non-multipart) request body, refused with 413 before parsing (uploads: media.maxBytes). */
    jsonMaxBytes: integerFrom('JSON_MAX_BYTES', 1024 * 1024),
    smtp: {
      host: optional('SMTP_HOST'),
      port: integerFrom('SMTP_PORT', 587),
      secure: flagFrom('SMTP_SECURE', false),
      user: optional('SMTP_USER'),
      password: optional('SMTP_PASSWORD'),
      from: optional('SMTP_FROM') ?? 'Zapdesk <no-reply@zapdesk.local>',
    },
    rateLimit: {
      /** Attempts allowed per window for login, signup and password reset, per e-mail. */
      attempts: integerFrom('RATE_LIMIT_ATTEMPTS', 10),
      /** The same per client IP: higher, since an office shares one address. */
      ipAttempts: integerFrom('RATE_LIMIT_IP_ATTEMPTS', 100),
      windowSeconds: integerFrom('RATE_LIMIT_WINDOW_SECONDS', 900),
    },
    /**
     * How many reverse proxies in front of us append to X-Forwarded-For (0: none, the header is ignored).
     * The client's IP (rate limits, sessions) is the entry that many hops from the right end.
     */
    trustProxy: proxyHopsFrom('TRUST_PROXY'),
    /**
     * The socket.io endpoint (/socket.io, for Whaticket-family clients): the server pings every
     * interval and drops a client that has not answered within the timeout (§9: 18000 ms each).
     */
    socketIo: {
      pingIntervalMs: Math.max(1, integerFrom('SOCKET_IO_PING_INTERVAL_MS', 18_000)),
      pingTimeoutMs: Math.max(1, integerFrom('SOCKET_IO_PING_TIMEOUT_MS', 18_000)),
    },
    /**
     * Days past a company's due date during which sessions already open keep working (with a warning);
     * after them the company is blocked (ERR_SUBSCRIPTION_EXPIRED) until renewed. Sign-in stops at the due date.
     */
    subscriptionGraceDays: integerFrom('SUBSCRIPTION_GRACE_DAYS', 5),
    billing: {
      /**
       * The payment provider's (Asaas) API, with its version: production https://api.asaas.com/v3, sandbox
       * https://api-sandbox.asaas.com/v3. Platform configuration, never a tenant's. The token is the
       * `asaas` setting of the platform's company (the one holding the super users).
       */
      asaasApiUrl: (optional('ASAAS_API_URL') ?? 'https://api.asaas.com/v3').replace(/\/$/, ''),
      /** The token Asaas sends in the asaas-access-token header of its webhooks; unset: every webhook is refused. */
      asaasWebhookToken: optional('ASAAS_WEBHOOK_TOKEN'),
      /** Each call to the provider, from the request to the whole answer (ms). */
      providerTimeoutMs: integerFrom('ASAAS_TIMEOUT_MS', 15_000),
      /** How many days before a company's due date its invoice for the next period is created. */
      invoiceLeadDays: integerFrom('BILLING_INVOICE_LEAD_DAYS', 10),
      /** Reminder e-mails: this many days before the due date, on it, and this many days after it. */
      reminderDaysBefore: integerFrom('BILLING_REMINDER_DAYS_BEFORE', 3),
      reminderDaysAfter: integerFrom('BILLING_REMINDER_DAYS_AFTER', 2),
    },
    logLevel: optional('LOG_LEVEL') ?? 'info',
    /** METRICS_TOKEN: the Bearer token Prometheus sends to GET /metrics; unset, /metrics answers 404. */
    metricsToken: optional('METRICS_TOKEN'),
    /** NODE_ENV=development: the web build's source maps are served (never in production). */
    development: optional('NODE_ENV') === 'development',
    /** Create the demo company (and, with the simulator, its connection) on start: `npm start` turns it on. */
    seedDemo: flagFrom('SEED_DEMO', false),
  }
}

export type Config = ReturnType<typeof loadConfig>
