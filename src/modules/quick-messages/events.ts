// The quick-messages module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { QuickMessage } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const quickMessageId = t.Integer({ minimum: 1 })

export const quickMessageEventSchemas = {
  /**
   * A quick reply was created, edited (its attachment included) or deleted. Who hears it depends on
   * whether it is shared (geral) and on its owner, so a deletion carries both; `unshared` says that
   * an update made a shared one personal.
   */
  'quick_message.changed': t.Union([
    t.Object({ companyId, quickMessageId, action: t.Literal('create'), quickMessage: QuickMessage }),
    t.Object({ companyId, quickMessageId, action: t.Literal('update'), quickMessage: QuickMessage, unshared: t.Boolean() }),
    t.Object({ companyId, quickMessageId, action: t.Literal('delete'), geral: t.Boolean(), userId: t.Nullable(t.Integer()) }),
  ]),
}
