// The file-lists module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'
import { FileList } from './model.ts'

const companyId = t.Integer({ minimum: 0 })
const fileListId = t.Integer({ minimum: 1 })

export const fileListEventSchemas = {
  /** A file list was created, edited (its files included) or deleted. */
  'file_list.changed': t.Union([
    t.Object({ companyId, fileListId, action: t.Union([t.Literal('create'), t.Literal('update')]), fileList: FileList }),
    t.Object({ companyId, fileListId, action: t.Literal('delete') }),
  ]),
}
