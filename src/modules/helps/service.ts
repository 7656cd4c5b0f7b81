// Help videos: read by every signed-in user, written by platform super users (checked by the routes).
import { eq } from 'drizzle-orm'
import { helps } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import type { CreateHelpBody, Help, UpdateHelpBody } from './model.ts'
import { findHelp } from './queries.ts'

function titleOf(input: { title: string }): string {
  const title = input.title.trim()
  if (title.length < 2) throw invalidField('title', 'title is required, 2 to 100 characters')
  return title
}

export async function showHelp(deps: Deps, helpId: number): Promise<Help> {
  const help = await findHelp(deps.db, helpId)
  if (!help) throw new AppError('ERR_NO_HELP_FOUND')
  return help
}

export async function createHelp(deps: Deps, input: CreateHelpBody): Promise<Help> {
  const [created] = await deps.db
    .insert(helps)
    .values({ title: titleOf(input), description: input.description?.trim() ?? '', video: input.video?.trim() ?? '' })
    .returning({ id: helps.id })
  const help = await showHelp(deps, created!.id)
  deps.bus.emit('help.changed', { helpId: help.id, action: 'create', help })
  return help
}

export async function updateHelp(deps: Deps, helpId: number, input: UpdateHelpBody): Promise<Help> {
  const updated = await deps.db
    .update(helps)
    .set({ title: titleOf(input), description: input.description?.trim(), video: input.video?.trim() })
    .where(eq(helps.id, helpId))
    .returning({ id: helps.id })
  if (updated.length === 0) throw new AppError('ERR_NO_HELP_FOUND')
  const help = await showHelp(deps, helpId)
  deps.bus.emit('help.changed', { helpId, action: 'update', help })
  return help
}

export async function deleteHelp(deps: Deps, helpId: number): Promise<void> {
  const deleted = await deps.db.delete(helps).where(eq(helps.id, helpId)).returning({ id: helps.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_HELP_FOUND')
  deps.bus.emit('help.changed', { helpId, action: 'delete' })
}
