import type { Command } from 'commander'
import { integerOption } from '../options.ts'

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the server (migrations and first-start accounts included), as `bun src/main.ts`')
    .option('--port <port>', 'listen on this port instead of PORT (default 8080)', integerOption('port', { min: 1, max: 65_535 }))
    .addHelpText('after', '\nEvery setting comes from the environment: DATABASE_URL, DATA_DIR, REDIS_URL, SMTP_HOST, ... (see README).')
    .action(async (options: { port?: number }) => {
      // config.ts is the one reader of the environment: the flag goes through it.
      if (options.port !== undefined) process.env.PORT = String(options.port)
      const { startServer } = await import('../../src/main.ts')
      await startServer()
      // Runs until SIGINT or SIGTERM: startServer's handler closes everything and exits.
      await new Promise<never>(() => {})
    })
}
