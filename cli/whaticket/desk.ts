// Quick replies and scheduled messages, with their media files. A schedule still pending in Whaticket
// stays pending here: it is sent when its time comes, once the connection is paired again.
import { quickMessages, scheduleStatuses, schedules } from '../../db/schema/index.ts'
import { companiesOf, type Step } from './context.ts'
import { companyColumn, integer, keyOf, moment, optionalText, text } from './source.ts'

export const quickMessageStep: Step = {
  entity: 'QuickMessages',
  query: { from: '"QuickMessages" q', columns: 'q.*', keys: ['q."id"'], company: companyColumn('q."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'QuickMessages', rows)
    const userIds = await context.mappings.resolveScoped(tx, 'Users', rows.map((row) => optionalText(row, 'userId')))
    const pairs = []
    for (const [row, companyId] of owners) {
      const reference = optionalText(row, 'mediaPath')
      const media = reference ? await context.media.copy({ entity: 'QuickMessages', sourceId: keyOf(row), reference, sourceCompanyId: integer(row, 'companyId')!, companyId }) : undefined
      const userId = userIds.get(`${companyId}:${text(row, 'userId')}`) ?? null
      const [created] = await tx
        .insert(quickMessages)
        .values({
          companyId,
          userId,
          shortcode: text(row, 'shortcode'),
          message: text(row, 'message'),
          // Whaticket has no shared flag: a reply without an owner is the company's.
          geral: userId === null,
          mediaPath: media?.path ?? null,
          mediaName: media ? (optionalText(row, 'mediaName') ?? media.name) : null,
        })
        .returning({ id: quickMessages.id })
      context.report.of('QuickMessages').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created!.id, companyId })
    }
    await context.mappings.record(tx, 'QuickMessages', pairs)
  },
}

type ScheduleStatus = (typeof scheduleStatuses)[number]

export const scheduleStep: Step = {
  entity: 'Schedules',
  query: { from: '"Schedules" s', columns: 's.*', keys: ['s."id"'], company: companyColumn('s."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Schedules', rows)
    const [contactIds, ticketIds, userIds] = await Promise.all([
      context.mappings.resolveScoped(tx, 'Contacts', rows.map((row) => optionalText(row, 'contactId'))),
      context.mappings.resolveScoped(tx, 'Tickets', rows.map((row) => optionalText(row, 'ticketId'))),
      context.mappings.resolveScoped(tx, 'Users', rows.map((row) => optionalText(row, 'userId'))),
    ])
    const pairs = []
    for (const [row, companyId] of owners) {
      const contactId = contactIds.get(`${companyId}:${text(row, 'contactId')}`)
      const sendAt = moment(row, 'sendAt')
      if (contactId === undefined || !sendAt) {
        const message = contactId === undefined ? `its contact (${text(row, 'contactId') || 'none'}) was not imported` : 'it has no sending time'
        context.report.issue('Schedules', keyOf(row), 'SCHEDULE_LEFT_OUT', message, { skipped: true })
        continue
      }
      const sourceStatus = text(row, 'status').toUpperCase()
      const status: ScheduleStatus = (scheduleStatuses as readonly string[]).includes(sourceStatus) ? (sourceStatus as ScheduleStatus) : moment(row, 'sentAt') ? 'ENVIADA' : 'PENDENTE'
      const reference = optionalText(row, 'mediaPath')
      const media = reference ? await context.media.copy({ entity: 'Schedules', sourceId: keyOf(row), reference, sourceCompanyId: integer(row, 'companyId')!, companyId }) : undefined
      const [created] = await tx
        .insert(schedules)
        .values({
          companyId,
          contactId,
          ticketId: ticketIds.get(`${companyId}:${text(row, 'ticketId')}`) ?? null,
          userId: userIds.get(`${companyId}:${text(row, 'userId')}`) ?? null,
          body: text(row, 'body'),
          sendAt,
          sentAt: moment(row, 'sentAt') ?? null,
          status,
          mediaPath: media?.path ?? null,
          mediaName: media ? (optionalText(row, 'mediaName') ?? media.name) : null,
          createdAt: moment(row, 'createdAt') ?? new Date(),
        })
        .returning({ id: schedules.id })
      context.report.of('Schedules').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created!.id, companyId })
    }
    await context.mappings.record(tx, 'Schedules', pairs)
  },
}
