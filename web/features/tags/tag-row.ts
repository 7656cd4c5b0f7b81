// A tag as the page holds it: the API's Tag without the timestamps (JSON strings on the wire, unused here).
import type { Tag } from '../../../src/modules/tags/model.ts'

export type TagRow = Omit<Tag, 'createdAt' | 'updatedAt'>

