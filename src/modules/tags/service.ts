// Tags put on tickets. Who may write (§6 says only that the kanban toggle is for admins and
// supervisors): any user may create a plain tag, because agents label tickets as they work; making a
// tag a kanban lane, and editing or deleting any tag, is for admins and supervisors.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { tags } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isUniqueViolation } from '../../core/errors.ts'
import type { CreateTagBody, Tag, TagOption, TagSearchQuery, UpdateTagBody } from './model.ts'
import { findTag, findTagNames, findTagOptions, findTagPage, tagExists, tagNameTaken } from './queries.ts'
import { type Actor, isSupervisorOrAdmin } from '../../contracts/roles.ts'
import { targetCompanyId } from '../../core/tenant.ts'

function nameOf(raw: string): string {
  const name = raw.trim()
  if (name.length < 3) throw invalidField('name', 'name is required, 3 to 50 characters')
  return name
}

async function assertNameFree(db: Executor, scope: { companyId: number; name: string; exceptTagId?: number }): Promise<void> {
  if (await tagNameTaken(db, scope)) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS')
}

function nameRace(error: unknown): never {
  if (isUniqueViolation(error, 'tags_company_name_unique')) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS')
  throw error
}

export async function showTag(deps: Deps, scope: { companyId: number; tagId: number }): Promise<Tag> {
  const tag = await findTag(deps.db, scope)
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND')
  return tag
}

/** Every tag of the company, light; only platform super users may name another company. */
/** GET /tags: a page of the company's tags (another company's for a super user naming it). */
export async function listTagPage(deps: Deps, actor: Actor, query: TagSearchQuery) {
  const { companyId: requestedCompanyId, ...page } = query
  return findTagPage(deps.db, { companyId: await targetCompanyId(deps.db, actor, requestedCompanyId), ...page })
}

export async function listTagOptions(deps: Deps, actor: Actor, requestedCompanyId?: number): Promise<TagOption[]> {
  const companyId = await targetCompanyId(deps.db, actor, requestedCompanyId)
  return findTagOptions(deps.db, { companyId })
}

/** The company's tags, light, by name: what another module offers to choose from (campaigns target one). */
export function companyTagOptions(db: Executor, companyId: number): Promise<TagOption[]> {
  return findTagOptions(db, { companyId })
}

/** The names of these tags of the company (another module showing what it points at). */
export function nameTags(db: Executor, scope: { companyId: number; ids: number[] }): Promise<{ id: number; name: string }[]> {
  return findTagNames(db, scope)
}

/** Whether the tag is the company's (another module checking a reference it keeps). */
export async function companyHasTag(db: Executor, scope: { companyId: number; tagId: number }): Promise<boolean> {
  return tagExists(db, scope)
}

export async function listKanbanLanes(deps: Deps, companyId: number): Promise<{ lista: TagOption[] }> {
  return { lista: await findTagOptions(deps.db, { companyId, kanbanOnly: true }) }
}

export async function createTag(deps: Deps, actor: Actor, input: CreateTagBody): Promise<Tag> {
  if (input.kanban === 1 && !isSupervisorOrAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  const name = nameOf(input.name)
  const tagId = await deps.db
    .transaction(async (tx) => {
      await assertNameFree(tx, { companyId, name })
      const [created] = await tx
        .insert(tags)
        .values({ companyId, name, color: input.color?.trim(), kanban: input.kanban ?? 0 })
        .returning({ id: tags.id })
      return created!.id
    })
    .catch(nameRace)
  const tag = await showTag(deps, { companyId, tagId })
  deps.bus.emit('tag.changed', { companyId, tagId, action: 'create', tag })
  return tag
}

export async function updateTag(deps: Deps, actor: Actor, tagId: number, input: UpdateTagBody): Promise<Tag> {
  if (!isSupervisorOrAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  await showTag(deps, { companyId, tagId })
  const name = input.name === undefined ? undefined : nameOf(input.name)
  await deps.db
    .transaction(async (tx) => {
      if (name !== undefined) await assertNameFree(tx, { companyId, name, exceptTagId: tagId })
      const changes = { name, color: input.color?.trim(), kanban: input.kanban }
      // An empty body changes nothing (and an UPDATE needs at least one column).
      if (Object.values(changes).every((value) => value === undefined)) return
      await tx
        .update(tags)
        .set(changes)
        .where(and(eq(tags.companyId, companyId), eq(tags.id, tagId)))
    })
    .catch(nameRace)
  const tag = await showTag(deps, { companyId, tagId })
  deps.bus.emit('tag.changed', { companyId, tagId, action: 'update', tag })
  return tag
}

/** Removes the tag from every ticket too (the foreign key cascades). */
export async function deleteTag(deps: Deps, actor: Actor, tagId: number): Promise<void> {
  if (!isSupervisorOrAdmin(actor)) throw new AppError('ERR_NO_PERMISSION')
  const companyId = actor.companyId
  const deleted = await deps.db
    .delete(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, tagId)))
    .returning({ id: tags.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_TAG_FOUND')
  deps.bus.emit('tag.changed', { companyId, tagId, action: 'delete' })
}
