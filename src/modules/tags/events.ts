// The tags module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { Tag } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const tagId = t.Integer({ minimum: 1 })

export const tagEventSchemas = {
  /** A tag was created, edited or deleted; create and update carry the tag as it now is. */
  'tag.changed': t.Union([
    t.Object({ companyId, tagId, action: t.Union([t.Literal('create'), t.Literal('update')]), tag: Tag }),
    t.Object({ companyId, tagId, action: t.Literal('delete') }),
  ]),
}
