// One-line structured logs (JSON), levels from LOG_LEVEL. Secrets and personal data never reach them:
// fields named like a credential or a message's content are redacted, a failed query's parameters
// (Drizzle puts them in its error message: message bodies, hashes, tokens) are cut, and so is the
// new password a reset URL carries in its path.
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof levels

export type Logger = Record<Exclude<LogLevel, 'silent'>, (message: string, fields?: Record<string, unknown>) => void>

const REDACTED = '[redacted]'
/** Keys whose value is a credential (password, passwordHash, token, refreshToken, apiKey, secret ...). */
const credentialKey = /password|token|secret|api_?key|authorization|cookie/i
/** Keys whose value is what a customer or an agent wrote. */
const contentKeys = new Set(['body', 'jsoncontent', 'text', 'caption'])

/** A failed query's text without its parameters ("Failed query: ...\nparams: ..."). */
export function withoutQueryParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/g, '\nparams: [redacted]')
}

/** A path without the secrets some routes carry in it (the password reset's code and new password). */
export function withoutPathSecrets(path: string): string {
  return path.replace(/(\/resetpasswords\/[^/]*)\/[^?]*/i, `$1/${REDACTED}`)
}

function redactValue(key: string, value: unknown): unknown {
  if (key && (credentialKey.test(key) || contentKeys.has(key.toLowerCase()))) return value === undefined || value === null ? value : REDACTED
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code ?? (value.cause as { code?: unknown } | undefined)?.code
    return { name: value.name, message: withoutQueryParams(value.message), stack: value.stack ? withoutQueryParams(value.stack) : undefined, code }
  }
  if (typeof value === 'string' && (key === 'url' || key === 'path')) return withoutPathSecrets(value)
  return value
}

/** The log line of a message and its fields, redacted. */
export function formatLogLine(level: string, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, redactValue)
}

export function createLogger(level: string): Logger {
  const threshold = levels[(level in levels ? level : 'info') as LogLevel]
  const write = (name: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[name] < threshold) return
    const line = formatLogLine(name, message, fields)
    if (name === 'error' || name === 'warn') console.error(line)
    else console.log(line)
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}
