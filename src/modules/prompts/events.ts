// The prompts module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Prompt } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const promptId = t.Integer({ minimum: 1 })

export const promptEventSchemas = {
  /**
   * A prompt was created, edited or deleted; create and update carry it with its key masked. A deletion
   * also clears the queues and connections that used it, which emit their own `queue.changed` and
   * `whatsapp.changed`.
   */
  'prompt.changed': t.Union([
    t.Object({ companyId, promptId, action: t.Union([t.Literal('create'), t.Literal('update')]), prompt: Prompt }),
    t.Object({ companyId, promptId, action: t.Literal('delete') }),
  ]),
}
