// Baileys logs through a pino-shaped logger (object first, message second). This bridges it to the
// project's logger; Baileys is chatty, so its trace is dropped and its info becomes debug.
import type { UserFacingSocketConfig } from '@whiskeysockets/baileys'
import type { Logger } from '../../core/logger.ts'

export type BaileysLogger = UserFacingSocketConfig['logger'] & {}

export function createBaileysLogger(logger: Logger, bindings: Record<string, unknown> = {}): BaileysLogger {
  const write = (level: 'debug' | 'warn' | 'error') => (object: unknown, message?: string) => {
    let fields: Record<string, unknown> = bindings
    if (object instanceof Error) fields = { ...bindings, error: object }
    else if (typeof object === 'object' && object !== null) fields = { ...bindings, ...(object as Record<string, unknown>) }
    const text = message ?? (typeof object === 'string' ? object : 'baileys')
    logger[level](text, fields)
  }
  return {
    level: 'debug',
    child: (more) => createBaileysLogger(logger, { ...bindings, ...more }),
    trace: () => {},
    debug: write('debug'),
    info: write('debug'),
    warn: write('warn'),
    error: write('error'),
  }
}
