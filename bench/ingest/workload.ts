// Who writes on which connection. Message j comes from contact j mod N; in round r = floor(j / N)
// contact c writes on connection (c + r) mod K, so consecutive messages spread over every
// connection and, after K rounds, every contact has a conversation on every connection.

export type Sender = { contact: number; connection: number }

export function senderOf(sequence: number, contacts: number, connections: number): Sender {
  const contact = sequence % contacts
  const round = Math.floor(sequence / contacts)
  return { contact, connection: (contact + round) % connections }
}

/** The customer's WhatsApp number: 13 digits, 55 21 9 and the contact's index. */
export function contactNumber(contact: number): string {
  return `55219${String(contact).padStart(8, '0')}`
}

/** Warm-up customers (the first one per connection, then the burst's), outside the measured contacts' numbers. */
export function warmUpNumber(customer: number): string {
  return `55218${String(customer).padStart(8, '0')}`
}

/** The (contact, connection) pairs that M messages from N contacts over K connections open. */
export function expectedPairs(messages: number, contacts: number, connections: number): Set<string> {
  const pairs = new Set<string>()
  const limit = Math.min(messages, contacts * connections)
  for (let sequence = 0; sequence < limit; sequence++) {
    const { contact, connection } = senderOf(sequence, contacts, connections)
    pairs.add(`${contact}:${connection}`)
  }
  return pairs
}
