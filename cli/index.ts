#!/usr/bin/env bun
// The zapdesk command: run the server and administer the platform from a shell.
import { Command } from 'commander'
import packageJson from '../package.json' with { type: 'json' }
import { registerCompanies } from './commands/companies.ts'
import { registerDatabase } from './commands/database.ts'
import { registerHelps } from './commands/helps.ts'
import { registerImports } from './commands/imports.ts'
import { registerWhaticketImport } from './commands/import-whaticket.ts'
import { registerMail } from './commands/mail.ts'
import { registerPlans } from './commands/plans.ts'
import { registerServe } from './commands/serve.ts'
import { registerSimulator } from './commands/sim.ts'
import { registerUsers } from './commands/users.ts'
import { EMBEDDED_DATABASE_NOTE } from './database.ts'
import { describeError } from './output.ts'

export function buildProgram(): Command {
  const program = new Command('zapdesk')
    .description('Zapdesk: multi-company WhatsApp customer service. Run the server, administer plans, companies and users.')
    .version(packageJson.version)
    .addHelpText('after', `\nOutput: aligned tables for people; --json for scripts on every command that prints data.\n${EMBEDDED_DATABASE_NOTE}`)
  registerServe(program)
  registerDatabase(program)
  registerCompanies(program)
  registerPlans(program)
  registerHelps(program)
  registerUsers(program)
  registerImports(program)
  registerWhaticketImport(program)
  registerMail(program)
  registerSimulator(program)
  return program
}

if (import.meta.main) {
  try {
    await buildProgram().parseAsync(process.argv)
  } catch (error) {
    // Commander reports its own usage errors and exits; what reaches here is ours: one line, exit 1.
    console.error(`error: ${describeError(error)}`)
    process.exitCode = 1
  }
}
