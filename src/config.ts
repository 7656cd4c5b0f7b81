// Every environment variable the product reads, parsed and typed in one place.
// Nothing else in the code reads process.env.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'

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

function optional(name: string): string | undefined {
  const raw = process.env[name]
  return raw === undefined || raw === '' ? undefined : raw
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

export function loadConfig() {
  const dataDir = resolve(optional('DATA_DIR') ?? 'data')
  const port = integerFrom('PORT', 8080)
  return {
    port,
    host: optional('HOST') ?? '0.0.0.0',
    publicUrl: (optional('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: optional('DATABASE_URL'),
    redisUrl: optional('REDIS_URL'),
    /** Prefix of every Redis key and channel, so that several installations can share one Redis. */
    redisPrefix: optional('REDIS_PREFIX') ?? 'zapdesk:',
    dataDir,
    adminPassword: optional('ADMIN_PASSWORD'),
    whatsappSimulator: flagFrom('WHATSAPP_SIMULATOR', false),
    /** With REDIS_URL: how long a WhatsApp session's lease lasts unrenewed (renewed every third of it). */
    whatsappLeaseSeconds: Math.max(1, integerFrom('WHATSAPP_LEASE_SECONDS', 30)),
    jwtSecret: secretFrom('JWT_SECRET', dataDir),
    accessTokenMinutes: integerFrom('ACCESS_TOKEN_MINUTES', 15),
    refreshTokenDays: integerFrom('REFRESH_TOKEN_DAYS', 7),
    media: {
      /** Largest upload accepted, in bytes (16 MiB: WhatsApp's limit for photos, audio and video). */
      maxBytes: integerFrom('MEDIA_MAX_BYTES', 16 * 1024 * 1024),
      /** Signs the /public media URLs, so that a file is reachable only through a link the API handed out. */
      urlSecret: secretFrom('MEDIA_URL_SECRET', dataDir),
      urlTtlSeconds: integerFrom('MEDIA_URL_TTL_SECONDS', 24 * 3600),
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
    /** Behind a reverse proxy: take the client's IP from X-Forwarded-For (for rate limits). */
    trustProxy: flagFrom('TRUST_PROXY', false),
    logLevel: optional('LOG_LEVEL') ?? 'info',
    /** Create the demo company (and, with the simulator, its connection) on start: `npm start` turns it on. */
    seedDemo: flagFrom('SEED_DEMO', false),
  }
}

export type Config = ReturnType<typeof loadConfig>
