// An integration as the page holds it: the API's QueueIntegration without the timestamps (JSON strings
// on the wire, unused here), and the `queueIntegration` channel's payloads (src/modules/queue-integrations/service.ts).
import type { QueueIntegration } from '../../../src/modules/queue-integrations/model.ts'

export type IntegrationRow = Omit<QueueIntegration, 'createdAt' | 'updatedAt'>


/** The server's search: the name contains the text, without case. */
export function matchesIntegrationSearch(row: Pick<IntegrationRow, 'name'>, search: string): boolean {
  return search === '' || row.name.toLowerCase().includes(search.toLowerCase())
}
