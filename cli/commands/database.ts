import type { Command } from 'commander'
import { seedPlatform } from '../../src/seed.ts'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { printJson, printTable } from '../output.ts'

export function registerDatabase(program: Command): void {
  program
    .command('migrate')
    .description('apply the database migrations (the server also does it on start)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', EMBEDDED_DATABASE_NOTE)
    .action(async (options: { json?: boolean }) => {
      // withDatabase migrates before any work: there is nothing more to do.
      const kind = await withDatabase(async (_db, config) => (config.databaseUrl ? 'postgres' : 'pglite'))
      if (options.json) printJson({ migrated: true, database: kind })
      else console.log(`Migrations applied (${kind === 'postgres' ? 'PostgreSQL' : 'embedded database'}).`)
    })

  program
    .command('seed')
    .description('create the platform super user and, for the demo, a company with an admin and an agent (only what is missing)')
    .option('--demo', 'create the demo company (default: SEED_DEMO, on)')
    .option('--no-demo', 'do not create the demo company')
    .option('--json', 'print the created accounts as JSON')
    .addHelpText('after', `\nThe super user's password is ADMIN_PASSWORD when set, otherwise generated. Passwords are shown only now.\n${EMBEDDED_DATABASE_NOTE}`)
    .action(async (options: { demo?: boolean; json?: boolean }) => {
      const result = await withDatabase((db, config) => seedPlatform(db, { adminPassword: config.adminPassword, demo: options.demo ?? config.seedDemo }))
      if (options.json) return printJson(result)
      if (result.created.length === 0) return console.log('Nothing to create: the accounts exist already.')
      console.log('Accounts created (the passwords are shown only now):')
      printTable(result.created, [
        { header: 'ROLE', value: (account) => account.role },
        { header: 'EMAIL', value: (account) => account.email },
        { header: 'PASSWORD', value: (account) => account.password },
      ])
    })
}
