// Which adapter serves which provider name: 'beta' (the spec's default) is Baileys, the real WhatsApp;
// 'simulator' is the in-process network, offered only when WHATSAPP_SIMULATOR is on.
import type { Deps } from '../../modules/deps.ts'
import type { ProviderFactory } from '../provider.ts'
import { simulatorFor } from '../simulator/simulator.ts'
import { lazyProviderFactory } from './lazy-factory.ts'

export function providerFactories(deps: Pick<Deps, 'db' | 'config' | 'logger' | 'now'>): Record<string, ProviderFactory> {
  const factories: Record<string, ProviderFactory> = {
    beta: lazyProviderFactory(async () => {
      const { createBaileysProviderFactory } = await import('../baileys/adapter.ts')
      return createBaileysProviderFactory({ db: deps.db, logger: deps.logger, now: deps.now })
    }),
  }
  if (deps.config.whatsappSimulator) factories.simulator = simulatorFor(deps.db, { logger: deps.logger, now: deps.now }).factory
  return factories
}
