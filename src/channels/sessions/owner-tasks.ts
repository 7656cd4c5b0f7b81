// Work that must run next to a connection's session, on the instance that owns it: a send, whose
// WhatsApp id has to be recorded inside the contact's lane of the instance where the echo and the
// receipts of that send arrive. A task is defined once, by name; the composition hands the connection
// manager the tasks it may be asked to run (ownerTasks). Every instance runs the same build, so a name
// means the same code on the owner as on the caller.
import type { Deps } from '../../modules/deps.ts'
import type { WhatsAppProvider } from '../provider.ts'

export type OwnerTask<Input, Output> = {
  readonly name: string
  /** Runs on the owner with its live provider; input and output cross instances as JSON (dates and bytes kept). */
  run(deps: Deps, provider: WhatsAppProvider, input: Input): Promise<Output>
}

/** Any task, whatever its input and output: what the owner looks up by name. */
export type AnyOwnerTask = OwnerTask<never, unknown>

export function defineOwnerTask<Input, Output>(name: string, run: (deps: Deps, provider: WhatsAppProvider, input: Input) => Promise<Output>): OwnerTask<Input, Output> {
  return { name, run }
}
