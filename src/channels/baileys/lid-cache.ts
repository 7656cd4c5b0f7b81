// WhatsApp addresses more and more people by LID; this cache turns a LID back into a phone number,
// fed by Baileys' mapping events, the contacts it reports, and its own LID store for the rest.
import { isJidGroup, isLidUser, isPnUser, jidNormalizedUser, type WAMessageKey } from '@whiskeysockets/baileys'
import type { BaileysContext, Socket } from './context.ts'
import { normalizeLidMapping } from './mapping.ts'

/** A map that forgets its oldest entries beyond `limit`. */
export function boundedMap<V>(limit: number) {
  const map = new Map<string, V>()
  return {
    get: (key: string) => map.get(key),
    has: (key: string) => map.has(key),
    set(key: string, value: V) {
      map.delete(key)
      map.set(key, value)
      if (map.size > limit) map.delete(map.keys().next().value!)
    },
    clear: () => map.clear(),
  }
}

export type LidCache = {
  phoneForLid(lid: string): string | undefined
  remember(mapping: { lid: string; pn: string }): void
  /** Asks Baileys' own LID store (persisted with the keys) for a person who came without a phone number. */
  learnPhone(sock: Socket, jid: string | null | undefined, alternate: string | null | undefined): Promise<void>
  /** learnPhone for the author of a message: the chat, or in a group the member who wrote. */
  learnSender(sock: Socket, key: WAMessageKey): Promise<void>
  /** The credentials were forgotten: a new login may be another phone. */
  clear(): void
}

export function createLidCache(context: BaileysContext, limit = 50_000): LidCache {
  const phoneByLid = boundedMap<string>(limit)

  const remember = (mapping: { lid: string; pn: string }) => {
    const normalized = normalizeLidMapping(mapping)
    if (normalized) phoneByLid.set(normalized.lid, normalized.pn)
  }

  async function learnPhone(sock: Socket, jid: string | null | undefined, alternate: string | null | undefined): Promise<void> {
    if (!jid || !isLidUser(jid) || isPnUser(alternate ?? undefined)) return
    const lid = jidNormalizedUser(jid)
    if (phoneByLid.has(lid)) return
    try {
      const pn = await sock.signalRepository?.lidMapping?.getPNForLID(lid)
      if (pn) remember({ lid, pn })
    } catch (error) {
      context.log.warn('baileys LID lookup failed', { error, lid })
    }
  }

  return {
    phoneForLid: (lid) => phoneByLid.get(lid),
    remember,
    learnPhone,
    learnSender: (sock, key) =>
      isJidGroup(key.remoteJid ?? undefined) ? learnPhone(sock, key.participant, key.participantAlt) : learnPhone(sock, key.remoteJid, key.remoteJidAlt),
    clear: () => phoneByLid.clear(),
  }
}
