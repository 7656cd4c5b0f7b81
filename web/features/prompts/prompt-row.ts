// A prompt as the page keeps it (GET /prompt, the `prompt` channel): apiKey masked, ordered by name.
import type { Prompt } from '../../../src/modules/prompts/model.ts'

export type PromptRow = Omit<Prompt, 'createdAt' | 'updatedAt'>


/** Only the fields the page uses: the socket and the REST answer carry the dates too. */
export function toPromptRow(prompt: PromptRow): PromptRow {
  const { id, name, prompt: text, model, maxTokens, temperature, apiKey, queueId, maxMessages, baseUrl, transcribeAudio, queue } = prompt
  return { id, name, prompt: text, model, maxTokens, temperature, apiKey, queueId, maxMessages, baseUrl, transcribeAudio, queue }
}

/** The server's order (src/modules/prompts/queries.ts): name, then id. */
export function comparePrompts(left: PromptRow, right: PromptRow): number {
  if (left.name !== right.name) return left.name < right.name ? -1 : 1
  return left.id - right.id
}

export function upsertPrompt(prompts: readonly PromptRow[], prompt: PromptRow): PromptRow[] {
  return [...prompts.filter((current) => current.id !== prompt.id), toPromptRow(prompt)].sort(comparePrompts)
}

export function removePrompt(prompts: readonly PromptRow[], promptId: number): PromptRow[] {
  return prompts.filter((prompt) => prompt.id !== promptId)
}

/**
 * A queue renamed or deleted elsewhere (the `queue` channel): the rows naming it follow, as the server
 * would answer now (a deleted queue leaves its prompts without one: the foreign key sets null).
 */
export function applyQueueChange(prompts: readonly PromptRow[], change: { queueId: number; name: string | null }): PromptRow[] {
  if (!prompts.some((prompt) => prompt.queueId === change.queueId)) return prompts as PromptRow[]
  return prompts.map((prompt) => {
    if (prompt.queueId !== change.queueId) return prompt
    return change.name === null ? { ...prompt, queueId: null, queue: null } : { ...prompt, queue: { id: change.queueId, name: change.name } }
  })
}
