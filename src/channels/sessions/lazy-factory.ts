// A ProviderFactory whose adapter module is imported on first connect, not at boot: the Baileys
// library takes ~200 ms to load, which every test file and CLI command would otherwise pay for nothing.
import type { ProviderFactory, WhatsAppProvider } from '../provider.ts'

export function lazyProviderFactory(load: () => Promise<ProviderFactory>): ProviderFactory {
  let loaded: Promise<ProviderFactory> | undefined
  // A failed import (a broken install) is retried on the next connect rather than remembered.
  const factory = () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined
      throw error
    }))
  return (options) => {
    let provider: Promise<WhatsAppProvider> | undefined
    const real = () => (provider ??= factory().then((create) => create(options)))
    return {
      whatsappId: options.whatsappId,
      connect: async (connectOptions) => (await real()).connect(connectOptions),
      disconnect: async () => (await real()).disconnect(),
      logout: async () => (await real()).logout(),
      sendText: async (input) => (await real()).sendText(input),
      sendMedia: async (input) => (await real()).sendMedia(input),
      deleteForEveryone: async (input) => (await real()).deleteForEveryone(input),
      markRead: async (input) => (await real()).markRead(input),
      checkNumber: async (number) => (await real()).checkNumber(number),
      profilePictureUrl: async (number) => (await real()).profilePictureUrl(number),
      rejectCall: async (call) => (await real()).rejectCall(call),
    }
  }
}
