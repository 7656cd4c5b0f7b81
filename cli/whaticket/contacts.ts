// Contacts with their extra fields, and tags. Zapdesk keeps one contact per number in a company and one
// tag per name: a second source row with the same number (or name) is merged into the first, reported.
import { and, eq, inArray } from 'drizzle-orm'
import { contactExtraInfo, contacts, tags } from '../../db/schema/index.ts'
import { companiesOf, type Step } from './context.ts'
import { flag, keyOf, optionalText, text, type SourceRow } from './source.ts'
import { companyColumn } from './source.ts'

const digitsOf = (value: string) => value.replace(/\D/g, '').slice(0, 40)

export const contactStep: Step = {
  entity: 'Contacts',
  query: { from: '"Contacts" c', columns: 'c.*', keys: ['c."id"'], company: companyColumn('c."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Contacts', rows)
    const connections = await context.mappings.resolveScoped(tx, 'Whatsapps', rows.map((row) => optionalText(row, 'whatsappId')))
    const candidates: { row: SourceRow; values: typeof contacts.$inferInsert }[] = []
    for (const [row, companyId] of owners) {
      const number = digitsOf(text(row, 'number'))
      if (number.length < 5) {
        context.report.issue('Contacts', keyOf(row), 'INVALID_NUMBER', `"${text(row, 'number')}" is not a number`, { skipped: true })
        continue
      }
      candidates.push({
        row,
        values: {
          companyId,
          number,
          name: text(row, 'name').trim().slice(0, 200) || number,
          email: text(row, 'email').trim(),
          profilePicUrl: text(row, 'profilePicUrl'),
          isGroup: flag(row, 'isGroup', false),
          // Later Atendechat versions have disableBot; the migrations above do not.
          disableBot: flag(row, 'disableBot', false),
          whatsappId: connections.get(`${companyId}:${text(row, 'whatsappId')}`) ?? null,
        },
      })
    }
    if (candidates.length === 0) return
    // One insert for the page; a number the company has already (or twice in the page) is not inserted.
    const inserted = await tx
      .insert(contacts)
      .values(candidates.map((candidate) => candidate.values))
      .onConflictDoNothing()
      .returning({ id: contacts.id, companyId: contacts.companyId, number: contacts.number })
    const numberKey = (companyId: number, number: string) => `${companyId}:${number}`
    const created = new Map(inserted.map((contact) => [numberKey(contact.companyId, contact.number), contact.id]))
    context.report.of('Contacts').imported += inserted.length
    const claimed = new Set<string>()
    const pairs = []
    for (const { row, values } of candidates) {
      const key = numberKey(values.companyId, values.number)
      let targetId = claimed.has(key) ? undefined : created.get(key)
      if (targetId !== undefined) {
        claimed.add(key)
      } else {
        const [existing] = await tx.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.companyId, values.companyId), eq(contacts.number, values.number))).limit(1)
        targetId = existing!.id
        context.report.issue('Contacts', keyOf(row), 'CONTACT_MERGED', `the company has a contact with the number ${values.number} already (id ${targetId}): its tickets and fields go to that one`)
      }
      pairs.push({ sourceId: keyOf(row), targetId, companyId: values.companyId })
    }
    await context.mappings.record(tx, 'Contacts', pairs)
  },
}

export const contactFieldStep: Step = {
  entity: 'ContactCustomFields',
  query: { from: '"ContactCustomFields" f JOIN "Contacts" c ON c."id" = f."contactId"', columns: 'f.*, c."companyId"', keys: ['f."id"'], company: companyColumn('c."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'ContactCustomFields', rows)
    const contactIds = await context.mappings.resolveScoped(tx, 'Contacts', rows.map((row) => text(row, 'contactId')))
    const pairs = []
    for (const [row, companyId] of owners) {
      const contactId = contactIds.get(`${companyId}:${text(row, 'contactId')}`)
      if (contactId === undefined) {
        context.report.issue('ContactCustomFields', keyOf(row), 'CONTACT_NOT_IMPORTED', `its contact (${text(row, 'contactId')}) was not imported`, { skipped: true })
        continue
      }
      const [created] = await tx
        .insert(contactExtraInfo)
        .values({ companyId, contactId, name: text(row, 'name'), value: text(row, 'value') })
        .returning({ id: contactExtraInfo.id })
      context.report.of('ContactCustomFields').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: created!.id, companyId })
    }
    await context.mappings.record(tx, 'ContactCustomFields', pairs)
  },
}

export const tagStep: Step = {
  entity: 'Tags',
  query: { from: '"Tags" t', columns: 't.*', keys: ['t."id"'], company: companyColumn('t."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Tags', rows)
    const pairs = []
    for (const [row, companyId] of owners) {
      const name = text(row, 'name').trim() || `tag ${keyOf(row)}`
      const [created] = await tx
        .insert(tags)
        .values({ companyId, name, color: optionalText(row, 'color') ?? '#5C59A0', kanban: flag(row, 'kanban', false) ? 1 : 0 })
        .onConflictDoNothing()
        .returning({ id: tags.id })
      let targetId = created?.id
      if (targetId === undefined) {
        const [existing] = await tx.select({ id: tags.id }).from(tags).where(and(eq(tags.companyId, companyId), inArray(tags.name, [name]))).limit(1)
        targetId = existing!.id
        context.report.issue('Tags', keyOf(row), 'TAG_MERGED', `the company has a tag named "${name}" already: its tickets get that one`)
      } else {
        context.report.of('Tags').imported += 1
      }
      pairs.push({ sourceId: keyOf(row), targetId, companyId })
    }
    await context.mappings.record(tx, 'Tags', pairs)
  },
}
