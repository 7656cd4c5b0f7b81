// The services take the same Deps as the server; the CLI builds them over its own connection.
import type { Config } from '../src/config.ts'
import { createDeps, type Deps } from '../src/modules/deps.ts'
import { createLogger } from '../src/core/logger.ts'
import type { Database } from '../db/client.ts'

/** Only errors are logged: stdout carries the command's output (and its JSON with --json). */
export function cliDeps(db: Database, config: Config): Deps {
  return createDeps({ db, config, logger: createLogger('error') })
}
