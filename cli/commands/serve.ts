import { Option, type Command } from 'commander'
import { ROLES } from '../../src/config.ts'
import { integerOption } from '../options.ts'

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the server (migrations and first-start accounts included), as `bun src/main.ts`')
    .option('--port <port>', 'listen on this port instead of PORT (default 8080)', integerOption('port', { min: 1, max: 65_535 }))
    .addOption(
      new Option('--role <role>', 'what this process runs: all (default), web (HTTP and websockets) or worker (WhatsApp sessions and jobs); instead of ZAPDESK_ROLE').choices([
        ...ROLES,
      ]),
    )
    .addHelpText(
      'after',
      '\nweb and worker need DATABASE_URL (PostgreSQL) and REDIS_URL; a worker answers only /health and /metrics on its port.' +
        '\nEvery setting comes from the environment: DATABASE_URL, DATA_DIR, REDIS_URL, SMTP_HOST, ... (see README).',
    )
    .action(async (options: { port?: number; role?: string }) => {
      // config.ts is the one reader of the environment: the flags go through it.
      if (options.port !== undefined) process.env.PORT = String(options.port)
      if (options.role !== undefined) process.env.ZAPDESK_ROLE = options.role
      const { startServer } = await import('../../src/main.ts')
      await startServer()
      // Runs until SIGINT or SIGTERM: startServer's handler closes everything and exits.
      await new Promise<never>(() => {})
    })
}
