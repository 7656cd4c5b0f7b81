// The simulated WhatsApp network of this process for a database, made on first use: what createApp
// plugs in (provider 'simulator' and its control routes) when the composition does not hand it one.
// Several apps on one database in one process (the scaled-out tests, a test and its own app) share the
// phones and outboxes, as instances share the real WhatsApp; test files on their own databases never
// meet. main.ts hands its own, kept on globalThis so that `bun --hot` does not forget the phones.
import { createSimulator, type Simulator } from './channels/simulator/simulator.ts'
import type { Logger } from './core/logger.ts'

const simulators = new WeakMap<object, Simulator>()

/** The simulator of this process for this database (created on first use, with these options). */
export function simulatorFor(scope: object, options: { logger?: Logger; now?: () => Date } = {}): Simulator {
  let simulator = simulators.get(scope)
  if (!simulator) {
    simulator = createSimulator(options)
    simulators.set(scope, simulator)
  }
  return simulator
}
