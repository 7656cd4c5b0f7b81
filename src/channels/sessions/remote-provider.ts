// A WhatsApp provider for a session another instance owns: each call travels to the owner, which
// runs it on its live provider. Session control (connect, disconnect, logout) is not a provider call
// here: it goes through the connection manager, which forwards it to the owner as a whole action.
import { AppError } from '../../core/errors.ts'
import type { WhatsAppProvider } from '../provider.ts'

/** The provider calls that can run on the owner; each takes one argument. */
export const remoteMethods = ['sendText', 'sendMedia', 'deleteForEveryone', 'markRead', 'checkNumber', 'profilePictureUrl', 'rejectCall', 'listContacts'] as const

export type RemoteMethod = (typeof remoteMethods)[number]

export type RemoteCall = { method: RemoteMethod; input: unknown }

export function isRemoteMethod(value: unknown): value is RemoteMethod {
  return typeof value === 'string' && (remoteMethods as readonly string[]).includes(value)
}

/** On the owner: the call on its own provider. A send's raw message stays there (it is not JSON). */
export async function invokeProvider(provider: WhatsAppProvider, call: RemoteCall): Promise<unknown> {
  switch (call.method) {
    case 'sendText': {
      const sent = await provider.sendText(call.input as Parameters<WhatsAppProvider['sendText']>[0])
      return { id: sent.id }
    }
    case 'sendMedia': {
      const sent = await provider.sendMedia(call.input as Parameters<WhatsAppProvider['sendMedia']>[0])
      return { id: sent.id }
    }
    case 'deleteForEveryone':
      return provider.deleteForEveryone(call.input as Parameters<WhatsAppProvider['deleteForEveryone']>[0])
    case 'markRead':
      return provider.markRead(call.input as Parameters<WhatsAppProvider['markRead']>[0])
    case 'checkNumber':
      return provider.checkNumber(call.input as string)
    case 'profilePictureUrl':
      return (await provider.profilePictureUrl(call.input as string)) ?? null
    case 'rejectCall':
      return provider.rejectCall(call.input as Parameters<WhatsAppProvider['rejectCall']>[0])
    case 'listContacts':
      // The same answer as a local provider without the feature (see contacts/phone-import.ts).
      if (!provider.listContacts) throw new AppError('ERR_WAPP_CONTACTS_UNAVAILABLE', { reason: 'unsupported' })
      return provider.listContacts()
  }
}

function controlElsewhere(): Promise<never> {
  return Promise.reject(new Error('this session runs on another instance: control it through the connection manager'))
}

export function createRemoteProvider(whatsappId: number, call: (remote: RemoteCall) => Promise<unknown>): WhatsAppProvider {
  const remote = <Result>(method: RemoteMethod, input: unknown) => call({ method, input }) as Promise<Result>
  return {
    whatsappId,
    connect: controlElsewhere,
    disconnect: controlElsewhere,
    logout: controlElsewhere,
    sendText: (input) => remote('sendText', input),
    sendMedia: (input) => remote('sendMedia', input),
    deleteForEveryone: (input) => remote('deleteForEveryone', input),
    markRead: (input) => remote('markRead', input),
    checkNumber: (number) => remote('checkNumber', number),
    profilePictureUrl: async (number) => (await remote<string | null>('profilePictureUrl', number)) ?? undefined,
    rejectCall: (input) => remote('rejectCall', input),
    listContacts: () => remote('listContacts', undefined),
  }
}
