// One-line structured logs (JSON), levels from LOG_LEVEL.
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof levels

export type Logger = Record<Exclude<LogLevel, 'silent'>, (message: string, fields?: Record<string, unknown>) => void>

export function createLogger(level: string): Logger {
  const threshold = levels[(level in levels ? level : 'info') as LogLevel]
  const write = (name: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[name] < threshold) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: name, message, ...fields }, (_key, value) =>
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
    )
    if (name === 'error' || name === 'warn') console.error(line)
    else console.log(line)
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}
