// The zapdesk command run in-process, on the database a test hands the CLI (cli/database.ts
// useDatabase): what it printed and its exit code, as a shell would see them.
import type { Command } from 'commander'
import { buildProgram } from '../../cli/index.ts'
import { describeError } from '../../cli/output.ts'

export type CliRun = { code: number; stdout: string; stderr: string }

/** Every command of the tree throws instead of exiting, and writes where the test reads. */
function captured(command: Command, sink: { stderr: string }): void {
  command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: (text) => void (sink.stderr += text) })
  for (const child of command.commands) captured(child, sink)
}

export async function runZapdesk(...args: string[]): Promise<CliRun> {
  const run = { code: 0, stdout: '', stderr: '' }
  const program = buildProgram()
  captured(program, run)
  const log = console.log
  console.log = (...parts: unknown[]) => void (run.stdout += `${parts.join(' ')}\n`)
  try {
    await program.parseAsync(['bun', 'zapdesk', ...args])
  } catch (error) {
    run.code = 1
    if (!(error instanceof Error && 'exitCode' in error)) run.stderr += `error: ${describeError(error)}\n`
  } finally {
    console.log = log
  }
  return run
}

export function jsonOf<Value>(run: CliRun): Value {
  if (run.code !== 0) throw new Error(`zapdesk failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as Value
}
