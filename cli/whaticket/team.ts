// Queues and their chatbot options, connections (without their WhatsApp sessions: each number is
// paired again by QR), users with their password hashes, and who serves which queue.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { profiles, queueOptions, queues, userQueues, users, whatsappQueues, whatsapps, type Profile } from '../../db/schema/index.ts'
import { connectionTokenHash, generateConnectionToken, storedConnectionToken } from '../../src/modules/whatsapp/connection-token.ts'
import { companiesOf, type ImportContext, type Step } from './context.ts'
import { companyColumn, flag, integer, keyOf, optionalText, text, type SourceRow } from './source.ts'

export const queueStep: Step = {
  entity: 'Queues',
  query: { from: '"Queues" q', columns: 'q.*', keys: ['q."id"'], company: companyColumn('q."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Queues', rows)
    const pairs = []
    for (const [row, companyId] of owners) {
      const name = text(row, 'name').trim()
      const [created] = await tx
        .insert(queues)
        .values({
          companyId,
          name,
          color: text(row, 'color') || '#5C59A0',
          greetingMessage: text(row, 'greetingMessage'),
          outOfHoursMessage: text(row, 'outOfHoursMessage'),
          orderQueue: integer(row, 'orderQueue') ?? null,
          schedules: Array.isArray(row.schedules) ? (row.schedules as never) : [],
        })
        .onConflictDoNothing()
        .returning({ id: queues.id })
      if (!created) {
        context.report.issue('Queues', keyOf(row), 'QUEUE_CONFLICT', `the company has a queue with the name "${name}" or the color ${text(row, 'color')} already`, { skipped: true })
        continue
      }
      context.report.of('Queues').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created.id, companyId })
    }
    await context.mappings.record(tx, 'Queues', pairs)
  },
}

/** Options whose parent comes later in id order get their parent once every option is in. */
export type PendingParent = { optionId: number; companyId: number; sourceParentId: string }

export function createQueueOptionStep(pendingParents: PendingParent[]): Step {
  return {
    entity: 'QueueOptions',
    query: { from: '"QueueOptions" o JOIN "Queues" q ON q."id" = o."queueId"', columns: 'o.*, q."companyId"', keys: ['o."id"'], company: companyColumn('q."companyId"') },
    async write(tx, rows, context) {
      const owners = await companiesOf(tx, context, 'QueueOptions', rows)
      const queueIds = await context.mappings.resolveScoped(tx, 'Queues', rows.map((row) => optionalText(row, 'queueId')))
      const parentIds = await context.mappings.resolveScoped(tx, 'QueueOptions', rows.map((row) => optionalText(row, 'parentId')))
      const pairs = []
      for (const [row, companyId] of owners) {
        const queueId = queueIds.get(`${companyId}:${text(row, 'queueId')}`)
        if (queueId === undefined) {
          context.report.issue('QueueOptions', keyOf(row), 'QUEUE_NOT_IMPORTED', `its queue (${text(row, 'queueId')}) was not imported`, { skipped: true })
          continue
        }
        const sourceParentId = optionalText(row, 'parentId')
        const parentId = sourceParentId ? parentIds.get(`${companyId}:${sourceParentId}`) : undefined
        const [created] = await tx
          .insert(queueOptions)
          .values({ companyId, queueId, parentId: parentId ?? null, title: text(row, 'title') || '-', message: text(row, 'message'), option: text(row, 'option') })
          .returning({ id: queueOptions.id })
        if (sourceParentId && parentId === undefined) pendingParents.push({ optionId: created!.id, companyId, sourceParentId })
        context.report.of('QueueOptions').imported += 1
        pairs.push({ sourceId: keyOf(row), targetId: created!.id, companyId })
      }
      await context.mappings.record(tx, 'QueueOptions', pairs)
    },
  }
}

export async function linkPendingParents(context: ImportContext, pending: PendingParent[]): Promise<void> {
  if (pending.length === 0) return
  await context.db.transaction(async (tx) => {
    const parents = await context.mappings.resolveScoped(tx, 'QueueOptions', pending.map((entry) => entry.sourceParentId))
    for (const entry of pending) {
      const parentId = parents.get(`${entry.companyId}:${entry.sourceParentId}`)
      if (parentId !== undefined) await tx.update(queueOptions).set({ parentId }).where(eq(queueOptions.id, entry.optionId))
      else context.report.issue('QueueOptions', entry.sourceParentId, 'PARENT_NOT_IMPORTED', `option ${entry.optionId} keeps no parent: its parent was not imported`)
    }
  })
}

export const whatsappStep: Step = {
  entity: 'Whatsapps',
  query: { from: '"Whatsapps" w', columns: 'w.*', keys: ['w."id"'], company: companyColumn('w."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Whatsapps', rows)
    const transferQueues = await context.mappings.resolveScoped(tx, 'Queues', rows.map((row) => optionalText(row, 'transferQueueId')))
    const pairs = []
    for (const [row, companyId] of owners) {
      const [hasDefault] = await tx.select({ id: whatsapps.id }).from(whatsapps).where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true))).limit(1)
      const sourceToken = optionalText(row, 'token')
      const [tokenTaken] = sourceToken ? await tx.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.tokenHash, connectionTokenHash(context, sourceToken))).limit(1) : []
      const wantsDefault = flag(row, 'isDefault', false)
      if (wantsDefault && hasDefault) context.report.issue('Whatsapps', keyOf(row), 'SECOND_DEFAULT', 'the company has a default connection already: this one is not the default')
      const [created] = await tx
        .insert(whatsapps)
        .values({
          companyId,
          name: text(row, 'name').trim() || `WhatsApp ${keyOf(row)}`,
          // The session stays behind: the number is paired again by QR code in Zapdesk.
          status: 'DISCONNECTED',
          isDefault: wantsDefault && !hasDefault,
          greetingMessage: text(row, 'greetingMessage'),
          complationMessage: text(row, 'complationMessage'),
          outOfHoursMessage: text(row, 'outOfHoursMessage'),
          ratingMessage: text(row, 'ratingMessage'),
          transferQueueId: transferQueues.get(`${companyId}:${text(row, 'transferQueueId')}`) ?? null,
          timeToTransfer: integer(row, 'timeToTransfer') ?? null,
          expiresInactiveMessage: text(row, 'expiresInactiveMessage'),
          expiresTicket: integer(row, 'expiresTicket') ?? 0,
          timeUseBotQueues: integer(row, 'timeUseBotQueues') ?? 0,
          maxUseBotQueues: integer(row, 'maxUseBotQueues') ?? 3,
          ...storedConnectionToken(context, sourceToken && !tokenTaken ? sourceToken : generateConnectionToken()),
        })
        .onConflictDoNothing()
        .returning({ id: whatsapps.id })
      if (!created) {
        context.report.issue('Whatsapps', keyOf(row), 'CONNECTION_CONFLICT', `the company has a connection named "${text(row, 'name')}" already`, { skipped: true })
        continue
      }
      if (sourceToken && tokenTaken) context.report.issue('Whatsapps', keyOf(row), 'TOKEN_REPLACED', 'its API token is in use by another connection: a new token was made')
      context.report.of('Whatsapps').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created.id, companyId })
    }
    await context.mappings.record(tx, 'Whatsapps', pairs)
  },
}

const profileOf = (value: string): Profile => ((profiles as readonly string[]).includes(value) ? (value as Profile) : 'user')

export const userStep: Step = {
  entity: 'Users',
  query: { from: '"Users" u', columns: 'u.*', keys: ['u."id"'], company: companyColumn('u."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Users', rows)
    const connections = await context.mappings.resolveScoped(tx, 'Whatsapps', rows.map((row) => optionalText(row, 'whatsappId')))
    const emails = [...owners.keys()].map((row) => text(row, 'email').trim().toLowerCase())
    const taken = emails.length ? await tx.select({ email: sql<string>`lower(${users.email})` }).from(users).where(inArray(sql`lower(${users.email})`, emails)) : []
    const takenEmails = new Set(taken.map((row) => row.email))
    const pairs = []
    for (const [row, companyId] of owners) {
      const email = text(row, 'email').trim().toLowerCase()
      if (takenEmails.has(email)) {
        context.report.issue('Users', keyOf(row), 'EMAIL_TAKEN', `a Zapdesk user signs in with ${email} already: this user is not imported, his tickets keep no agent`, { skipped: true })
        continue
      }
      const isSuper = flag(row, 'super', false)
      // A super user administers the whole platform: only an installation moving whole brings its own.
      if (isSuper && !context.wholeInstallation) context.report.issue('Users', keyOf(row), 'SUPER_NOT_KEPT', `${email} is a super user in Whaticket; imported with --company he is a plain ${profileOf(text(row, 'profile'))}`)
      const [created] = await tx
        .insert(users)
        .values({
          companyId,
          name: text(row, 'name').trim() || email,
          email,
          // Whaticket's bcrypt hash: sign-in verifies it and stores our own hash on the first success.
          passwordHash: text(row, 'passwordHash'),
          profile: profileOf(text(row, 'profile')),
          super: isSuper && context.wholeInstallation,
          whatsappId: connections.get(`${companyId}:${text(row, 'whatsappId')}`) ?? null,
          // Later Atendechat versions have allTicket ("enable"/"enabled"); the migrations above do not.
          allTicket: text(row, 'allTicket').startsWith('enable') ? 'enabled' : 'desabled',
        })
        .returning({ id: users.id })
      takenEmails.add(email)
      context.report.of('Users').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created!.id, companyId })
    }
    await context.mappings.record(tx, 'Users', pairs)
  },
}

/** A join row (UserQueues, WhatsappQueues): both sides must have been imported. */
function linkStep(input: { entity: string; from: string; owner: { column: string; entity: string }; insert: (tx: Executor, values: { ownerId: number; queueId: number; companyId: number }) => Promise<unknown> }): Step {
  const keyOfLink = (row: SourceRow) => `${text(row, input.owner.column)}:${text(row, 'queueId')}`
  return {
    entity: input.entity,
    query: { from: input.from, columns: 'l.*, o."companyId"', keys: [`l."${input.owner.column}"`, 'l."queueId"'], company: companyColumn('o."companyId"') },
    keyOf: keyOfLink,
    async write(tx, rows, context) {
      const owners = await context.mappings.resolveScoped(tx, input.owner.entity, rows.map((row) => text(row, input.owner.column)))
      const queueIds = await context.mappings.resolveScoped(tx, 'Queues', rows.map((row) => text(row, 'queueId')))
      const companies = await context.mappings.resolve(tx, 'Companies', rows.map((row) => text(row, 'companyId')))
      const pairs = []
      for (const row of rows) {
        const companyId = companies.get(text(row, 'companyId'))
        const ownerId = owners.get(`${companyId}:${text(row, input.owner.column)}`)
        const queueId = queueIds.get(`${companyId}:${text(row, 'queueId')}`)
        if (ownerId === undefined || queueId === undefined || companyId === undefined) {
          context.report.issue(input.entity, keyOfLink(row), 'SIDE_NOT_IMPORTED', `the ${input.owner.entity === 'Users' ? 'user' : 'connection'} or the queue was not imported`, { skipped: true })
          continue
        }
        await input.insert(tx, { ownerId, queueId, companyId })
        context.report.of(input.entity).imported += 1
        pairs.push({ sourceId: keyOfLink(row), targetId: ownerId, companyId })
      }
      await context.mappings.record(tx, input.entity, pairs)
    },
  }
}

export const userQueueStep = linkStep({
  entity: 'UserQueues',
  from: '"UserQueues" l JOIN "Users" o ON o."id" = l."userId"',
  owner: { column: 'userId', entity: 'Users' },
  insert: (tx, { ownerId, queueId, companyId }) => tx.insert(userQueues).values({ userId: ownerId, queueId, companyId }).onConflictDoNothing(),
})

export const whatsappQueueStep = linkStep({
  entity: 'WhatsappQueues',
  from: '"WhatsappQueues" l JOIN "Whatsapps" o ON o."id" = l."whatsappId"',
  owner: { column: 'whatsappId', entity: 'Whatsapps' },
  insert: (tx, { ownerId, queueId, companyId }) => tx.insert(whatsappQueues).values({ whatsappId: ownerId, queueId, companyId }).onConflictDoNothing(),
})
