// Which WhatsApp providers this server offers: 'beta' (Baileys) always, 'simulator' only when it runs
// with WHATSAPP_SIMULATOR. Asked once per page, when an admin opens the connection form.
import type { ProviderName } from '../../../src/modules/whatsapp/model.ts'
import { api } from '../../api/client.ts'

let offered: Promise<ProviderName[]> | undefined

export function availableProviders(): Promise<ProviderName[]> {
  offered ??= api.whatsapp.providers.get().then(({ data }): ProviderName[] => {
    // Unreachable or refused now: ask again next time instead of remembering a guess.
    if (!data) offered = undefined
    return data?.providers ?? ['beta']
  })
  return offered
}
