// A data-subject export (LGPD art. 18, GDPR art. 15/20): everything the company holds about one
// contact as a zip, `contact.json` (the contact, extra fields, tickets with tags, notes, tracking and
// ratings, schedules, every message with its metadata) then `media/<message id>-<name>` for each file
// still on disk. Streamed: messages are read a batch at a time into the JSON entry, files are read
// from storage as streams when the zip reaches them; memory holds one batch plus the zip's directory.
import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import { AppError } from '../../core/errors.ts'
import { nameOfStoredPath } from '../../core/storage/storage.ts'
import type { Deps } from '../deps.ts'
import { findContactForExport, listSchedulesForExport, listTicketsForExport, messageBatchesForExport, type ExportMessageRow } from './data-export-queries.ts'

type Scope = { companyId: number; contactId: number }

export type ContactDataExport = { fileName: string; body: ReadableStream<Uint8Array> }

/** Where a message's file sits in the archive (the JSON names it so a reader can pair them). */
export function archivePathOf(message: Pick<ExportMessageRow, 'id' | 'mediaPath'>): string | null {
  return message.mediaPath ? `media/${message.id}-${nameOfStoredPath(message.mediaPath) || 'file'}` : null
}

function messageJson(message: ExportMessageRow, present: boolean): string {
  const { mediaPath: _mediaPath, ...rest } = message
  return JSON.stringify({ ...rest, mediaFile: present ? archivePathOf(message) : null, mediaMissing: message.mediaPath !== null && !present })
}

async function* documentChunks(deps: Deps, scope: Scope, head: Record<string, unknown>, ticketIds: number[]): AsyncGenerator<string> {
  // The head (contact, tickets, schedules) is small; the messages are the long part, so they come last.
  const opening = JSON.stringify(head, null, 2)
  yield `${opening.slice(0, opening.lastIndexOf('}')).trimEnd()},\n  "messages": [`
  let first = true
  for await (const batch of messageBatchesForExport(deps.db, { ...scope, ticketIds })) {
    const lines: string[] = []
    for (const message of batch) {
      const present = message.mediaPath ? (await deps.storage.read(message.mediaPath)) !== undefined : false
      lines.push(`${first ? '' : ','}\n    ${messageJson(message, present)}`)
      first = false
    }
    yield lines.join('')
  }
  yield '\n  ]\n}\n'
}

/** Queues one lazy entry per file still on disk; the stream opens only when the zip gets to it. */
async function addMediaEntries(deps: Deps, zip: ZipFile, scope: Scope, ticketIds: number[]): Promise<void> {
  for await (const batch of messageBatchesForExport(deps.db, { ...scope, ticketIds, withMedia: true })) {
    for (const message of batch) {
      const file = message.mediaPath ? await deps.storage.read(message.mediaPath) : undefined
      if (!file) continue
      zip.addReadStreamLazy(archivePathOf(message)!, { mtime: message.createdAt, compress: false, size: file.size }, (callback) =>
        callback(null, Readable.fromWeb(file.stream() as unknown as import('node:stream/web').ReadableStream<Uint8Array>)),
      )
    }
  }
}

export async function exportContactData(deps: Deps, scope: Scope): Promise<ContactDataExport> {
  // Everything that can answer 404 is read before the first byte goes out.
  const found = await findContactForExport(deps.db, scope)
  if (!found) throw new AppError('ERR_NO_CONTACT_FOUND')
  const ticketList = await listTicketsForExport(deps.db, scope)
  const scheduleList = await listSchedulesForExport(deps.db, scope)
  const ticketIds = ticketList.map((ticket) => ticket.id)
  const now = deps.now()
  const { companyId: _companyId, ...contact } = found.contact
  const head = { exportedAt: now.toISOString(), contact, extraInfo: found.extraInfo, tickets: ticketList, schedules: scheduleList }

  const zip = new ZipFile()
  // yazl's output is a PassThrough; its types say only NodeJS.ReadableStream.
  const output = zip.outputStream as Readable
  const fail = (error: unknown) => {
    // The headers are gone already: the download ends short, and the log says why.
    deps.logger.error('contact data export failed', { error, companyId: scope.companyId, contactId: scope.contactId })
    output.destroy(error instanceof Error ? error : new Error(String(error)))
  }
  zip.addReadStreamLazy('contact.json', { mtime: now }, (callback) => {
    const document = Readable.from(documentChunks(deps, scope, head, ticketIds))
    document.on('error', fail)
    callback(null, document)
  })
  void addMediaEntries(deps, zip, scope, ticketIds)
    .then(() => zip.end())
    .catch(fail)
  const day = now.toISOString().slice(0, 10)
  return { fileName: `contact-${scope.contactId}-${day}.zip`, body: Readable.toWeb(output) as unknown as ReadableStream<Uint8Array> }
}
