import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { prompts, queues } from '../../../db/schema/index.ts'
import type { Prompt } from './model.ts'

/** Prompts with their queue's name; the join names the company too, so a queue can never be another's. */
async function selectPrompts(db: Executor, scope: { companyId: number; where?: SQL }): Promise<Prompt[]> {
  const rows = await db
    .select({
      id: prompts.id,
      name: prompts.name,
      prompt: prompts.prompt,
      model: prompts.model,
      maxTokens: prompts.maxTokens,
      temperature: prompts.temperature,
      apiKey: prompts.apiKey,
      queueId: prompts.queueId,
      maxMessages: prompts.maxMessages,
      baseUrl: prompts.baseUrl,
      transcribeAudio: prompts.transcribeAudio,
      queueName: queues.name,
      createdAt: prompts.createdAt,
      updatedAt: prompts.updatedAt,
    })
    .from(prompts)
    .leftJoin(queues, and(eq(queues.id, prompts.queueId), eq(queues.companyId, scope.companyId)))
    .where(and(eq(prompts.companyId, scope.companyId), scope.where))
    .orderBy(asc(prompts.name), asc(prompts.id))
  return rows.map(({ queueName, ...row }) => ({
    ...row,
    temperature: Number(row.temperature),
    queue: row.queueId !== null && queueName !== null ? { id: row.queueId, name: queueName } : null,
  }))
}

export async function findPrompts(db: Executor, scope: { companyId: number }): Promise<Prompt[]> {
  return selectPrompts(db, scope)
}

export async function findPrompt(db: Executor, scope: { companyId: number; promptId: number }): Promise<Prompt | undefined> {
  const [prompt] = await selectPrompts(db, { companyId: scope.companyId, where: eq(prompts.id, scope.promptId) })
  return prompt
}

/** Names are compared without case: "Sales bot" and "SALES BOT" would be the same prompt to a person. */
export async function promptNameTaken(db: Executor, scope: { companyId: number; name: string; exceptPromptId?: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(
      and(
        eq(prompts.companyId, scope.companyId),
        sql`lower(${prompts.name}) = ${scope.name.toLowerCase()}`,
        scope.exceptPromptId === undefined ? undefined : ne(prompts.id, scope.exceptPromptId),
      ),
    )
    .limit(1)
  return row !== undefined
}
