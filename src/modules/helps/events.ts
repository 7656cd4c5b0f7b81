// The helps module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Help } from './model.ts'

const helpId = t.Integer({ minimum: 1 })

export const helpEventSchemas = {
  /** A help video was created, edited or deleted by a super user; create and update carry it as saved. */
  'help.changed': t.Union([
    t.Object({ helpId, action: t.Union([t.Literal('create'), t.Literal('update')]), help: Help }),
    t.Object({ helpId, action: t.Literal('delete') }),
  ]),
}
