// A Dialogflow service-account key (jsonContent) never leaves the server whole, not even to admins:
// reads, write answers and realtime frames carry a mask that says a key is stored and which service
// account it is (its client_email, an address, not a credential). The form replaces the key by
// pasting a new one; leaving it out, or sending the mask back as it came, keeps the stored one.

const MASK = '****'

export function maskJsonContent(jsonContent: string): string {
  if (jsonContent === '') return ''
  let account: unknown
  try {
    account = (JSON.parse(jsonContent) as { client_email?: unknown }).client_email
  } catch {
    account = undefined
  }
  return typeof account === 'string' && account.length <= 320 ? `${MASK} ${account}` : MASK
}

/** Whether a jsonContent sent is the mask of the stored key (a client that sends back what it read). */
export function isMaskOf(sent: string | undefined, storedJsonContent: string): boolean {
  return sent !== undefined && sent.startsWith(MASK) && sent.trim() === maskJsonContent(storedJsonContent)
}

export function maskIntegration<Integration extends { jsonContent: string }>(integration: Integration): Integration {
  return { ...integration, jsonContent: maskJsonContent(integration.jsonContent) }
}
