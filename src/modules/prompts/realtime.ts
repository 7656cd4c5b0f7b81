// The company channel `prompt`, to the company's admins only (who alone manage prompts):
// {action: 'create' | 'update', prompt} with the key masked, or {action: 'delete', promptId}.
import type { Deps } from '../deps.ts'

export function listenPromptRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('prompt.changed', (event) =>
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'prompt',
      data: event.action === 'delete' ? { action: 'delete', promptId: event.promptId } : { action: event.action, prompt: event.prompt },
      audience: { kind: 'admins' },
    }),
  )
}
