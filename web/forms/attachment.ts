// A record's attachment in a dialog that saves the text first and the file after (a new record has
// no id to attach to before): quick replies and scheduled messages.

/** What happens to the attachment on save. */
export type Attachment = { kind: 'keep' } | { kind: 'replace'; file: File } | { kind: 'remove' }

type Answer<Row> = Promise<{ data: Row | null; error: unknown }>

export type AttachmentRequests<Row> = { upload: (file: File) => Answer<Row>; remove: () => Answer<Row> }

/**
 * The attachment step, once the text is saved: uploads the new file or removes the stored one.
 * Resolves to the record as it ends up, or null when the server refused (`onRefused` gets its error).
 */
export async function saveAttachment<Row extends { mediaPath?: string | null }>(
  attachment: Attachment,
  current: Row,
  requests: AttachmentRequests<Row>,
  onRefused: (error: unknown) => void,
): Promise<Row | null> {
  if (attachment.kind === 'keep' || (attachment.kind === 'remove' && !current.mediaPath)) return current
  const { data, error } = attachment.kind === 'replace' ? await requests.upload(attachment.file) : await requests.remove()
  if (data && !error) return data
  onRefused(error)
  return null
}
