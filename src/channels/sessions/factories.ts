// Which adapter serves which provider name: 'beta' (the spec's default) is Baileys, the real WhatsApp;
// 'simulator' is the in-process network, offered only when WHATSAPP_SIMULATOR is on.
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import type { Deps } from '../../modules/deps.ts'
import type { ProviderFactory } from '../provider.ts'
import type { Simulator } from '../simulator/simulator.ts'
import { lazyProviderFactory } from './lazy-factory.ts'

/** `simulator`: the process's simulated network, given by the composition when WHATSAPP_SIMULATOR is on. */
export function providerFactories(deps: Pick<Deps, 'db' | 'logger' | 'now' | 'config'>, simulator: Simulator | undefined): Record<string, ProviderFactory> {
  const factories: Record<string, ProviderFactory> = {
    beta: lazyProviderFactory(async () => {
      const { createBaileysProviderFactory } = await import('../baileys/adapter.ts')
      return createBaileysProviderFactory({ db: deps.db, secrets: createSecretBox(deps.config.secretsKey), logger: deps.logger, now: deps.now, mediaHosts: deps.config.media.allowedHosts })
    }),
  }
  if (simulator) factories.simulator = simulator.factory
  return factories
}
