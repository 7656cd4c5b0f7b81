// The company channel `file` (§7 Realtime), to everyone of the company (the chat input offers the
// lists): {action: 'create' | 'update', files: the list} or {action: 'delete', fileId}.
import type { Deps } from '../deps.ts'

export function listenFileListRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('file_list.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'file',
      data: event.action === 'delete' ? { action: 'delete', fileId: event.fileListId } : { action: event.action, files: event.fileList },
      audience: { kind: 'company' },
    }),
  )
}
