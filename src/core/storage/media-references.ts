// Which stored files a row still holds. A signed link names a path, not a row: it must die with the
// row (issue 11 #9), so the public route serves a file only while some live row refers to it, and a
// deletion removes a file only when no other row does (a sent schedule's message shares the
// schedule's file; a campaign will share its file with every message it sends).
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { announcements, campaigns, chatMessages, fileOptions, messages, quickMessages, schedules, tickets } from '../../../db/schema/index.ts'
import type { Logger } from '../logger.ts'
import { isSafeMediaPath, type MediaStorage } from './storage.ts'

/** The company a stored path belongs to: `save` writes `<companyId>/<month>/<name>`. */
export function companyOfMediaPath(path: string): number | undefined {
  const companyId = Number(path.split('/', 1)[0])
  return Number.isSafeInteger(companyId) && companyId > 0 ? companyId : undefined
}

/** Paths per statement: seven branches of bind parameters stay far below PostgreSQL's 65,535. */
const PATHS_PER_QUERY = 1000

/** The paths among `paths` that a live row of the company refers to (a message deleted for everyone is not live). */
export async function liveMediaPaths(db: Executor, companyId: number, paths: string[]): Promise<Set<string>> {
  const live = new Set<string>()
  for (let start = 0; start < paths.length; start += PATHS_PER_QUERY) {
    for (const path of await livePathsOf(db, companyId, paths.slice(start, start + PATHS_PER_QUERY))) live.add(path)
  }
  return live
}

async function livePathsOf(db: Executor, companyId: number, paths: string[]): Promise<string[]> {
  // One statement, each branch on an index: messages by media_path, the others by company.
  const rows = await db
    .select({ path: messages.mediaPath })
    .from(messages)
    .where(and(inArray(messages.mediaPath, paths), eq(messages.companyId, companyId), eq(messages.isDeleted, false)))
    .unionAll(db.select({ path: schedules.mediaPath }).from(schedules).where(and(eq(schedules.companyId, companyId), inArray(schedules.mediaPath, paths))))
    .unionAll(db.select({ path: quickMessages.mediaPath }).from(quickMessages).where(and(eq(quickMessages.companyId, companyId), inArray(quickMessages.mediaPath, paths))))
    .unionAll(db.select({ path: chatMessages.mediaPath }).from(chatMessages).where(and(inArray(chatMessages.mediaPath, paths), eq(chatMessages.companyId, companyId))))
    .unionAll(db.select({ path: campaigns.mediaPath }).from(campaigns).where(and(eq(campaigns.companyId, companyId), inArray(campaigns.mediaPath, paths))))
    .unionAll(db.select({ path: fileOptions.path }).from(fileOptions).where(and(eq(fileOptions.companyId, companyId), inArray(fileOptions.path, paths))))
    .unionAll(db.select({ path: announcements.mediaPath }).from(announcements).where(and(eq(announcements.companyId, companyId), inArray(announcements.mediaPath, paths))))
  return rows.map((row) => row.path).filter((path): path is string => path !== null)
}

/**
 * Whether the path is the image of an active announcement. Announcements are the platform's notices to
 * every user of every company, and a Whaticket-family client shows their image from
 * /public/{mediaPath} without a signature (§7): such a file is served without one. Its path carries
 * 128 random bits, so it is found only by those shown the announcement; an inactive one's image, and
 * every other file, still need a signed link.
 */
export async function isActiveAnnouncementImage(db: Executor, path: string): Promise<boolean> {
  if (!isSafeMediaPath(path)) return false
  const [row] = await db
    .select({ id: announcements.id })
    .from(announcements)
    .where(and(eq(announcements.mediaPath, path), eq(announcements.status, true)))
    .limit(1)
  return row !== undefined
}

/** Whether the public route may serve the path: some live row of its company refers to it. */
export async function isMediaPathLive(db: Executor, path: string): Promise<boolean> {
  // Not a path `save` writes (a NUL, a traversal): no row can hold it, and PostgreSQL refuses a NUL.
  if (!isSafeMediaPath(path)) return false
  const companyId = companyOfMediaPath(path)
  if (companyId === undefined) return false
  return (await liveMediaPaths(db, companyId, [path])).has(path)
}

/** The media paths of the messages of these tickets: what a deletion that cascades to them must erase. */
export async function mediaPathsOfTickets(db: Executor, companyId: number, ticketIds: number[]): Promise<string[]> {
  if (ticketIds.length === 0) return []
  const rows = await db
    .selectDistinct({ path: messages.mediaPath })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), inArray(messages.ticketId, ticketIds), isNotNull(messages.mediaPath)))
  return rows.map((row) => row.path).filter((path): path is string => path !== null)
}

/** The files a contact's deletion takes along: his tickets' messages' media and his schedules' images. */
export async function mediaPathsOfContact(db: Executor, companyId: number, contactId: number): Promise<string[]> {
  const rows = await db
    .select({ path: messages.mediaPath })
    .from(messages)
    .innerJoin(tickets, and(eq(tickets.companyId, messages.companyId), eq(tickets.id, messages.ticketId)))
    .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId), isNotNull(messages.mediaPath)))
    .unionAll(
      db
        .select({ path: schedules.mediaPath })
        .from(schedules)
        .where(and(eq(schedules.companyId, companyId), eq(schedules.contactId, contactId), isNotNull(schedules.mediaPath))),
    )
  return [...new Set(rows.map((row) => row.path).filter((path): path is string => path !== null))]
}

export type RemovedFiles = { removed: number; failed: number }

/**
 * After the commit of a deletion (a message, a ticket, a contact, an erasure, the retention job):
 * removes the files no live row refers to any more (a schedule's image stays while the schedule does,
 * though the message sent from it is gone). A file that cannot be removed is logged and counted, never
 * fatal: the row is gone, so the public route no longer serves it.
 */
export async function removeUnreferencedMedia(
  deps: { db: Executor; storage: MediaStorage; logger: Logger },
  companyId: number,
  paths: ReadonlyArray<string | null | undefined>,
): Promise<RemovedFiles> {
  const unique = [...new Set(paths.filter((path): path is string => typeof path === 'string' && path !== ''))]
  const result: RemovedFiles = { removed: 0, failed: 0 }
  if (unique.length === 0) return result
  const live = await liveMediaPaths(deps.db, companyId, unique)
  for (const path of unique) {
    if (live.has(path)) continue
    try {
      await deps.storage.remove(path)
      result.removed += 1
    } catch (error) {
      result.failed += 1
      deps.logger.warn('could not remove a deleted media file', { companyId, path, error })
    }
  }
  return result
}
