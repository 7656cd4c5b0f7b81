// The ticket search over the words of the messages (ticket_words, kept by triggers on messages):
// whole words and prefixes, accents folded both ways, every word of the text required, and the
// words following the messages: edited, soft-deleted, deleted, with their ticket; never another
// company's. Through GET /api/tickets, as the web client searches.
import { describe, expect, test } from 'bun:test'
import { and, eq, sql, type SQL } from 'drizzle-orm'
import { messages, tickets, ticketWords } from '../../db/schema/index.ts'
import { rowsOf } from '../../src/core/sql.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'

const context = await createTestContext()

const idsOf = (page: { tickets: { id: number }[] } | null | undefined) => (page?.tickets ?? []).map((ticket) => ticket.id).sort((a, b) => a - b)
const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b)

// Contact names and numbers made of letters and digits no searched text holds: the search also
// matches a contact's name (ILIKE) and number, and a random name such as "Cliente 8dix2k" made
// search('di') find a ticket (it failed a clean run once, on PGlite).
let contactSequence = 0
function spelled(value: number, alphabet: string): string {
  let text = ''
  do {
    text = alphabet[value % alphabet.length] + text
    value = Math.floor(value / alphabet.length)
  } while (value > 0)
  return text
}

async function company() {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const ticketWith = async (...bodies: string[]) => {
    const sequence = ++contactSequence
    const contact = await makeContact(context.db, { companyId, name: `Cliente ${spelled(sequence, 'qwkyz')}`, number: `55${spelled(sequence, '0235679').padStart(11, '0')}` })
    const ticket = await makeTicket(context.db, { companyId, contactId: contact.id })
    const stored =
      bodies.length > 0 ? await context.db.insert(messages).values(bodies.map((body) => ({ companyId, ticketId: ticket.id, contactId: contact.id, body }))).returning({ id: messages.id }) : []
    return { ...ticket, messageIds: stored.map((row) => row.id) }
  }
  const search = async (searchParam: string) => idsOf((await tenant.asAdmin.api.tickets.get({ query: { showAll: true, searchParam } })).data)
  return { tenant, companyId, ticketWith, search }
}

describe('GET /api/tickets: searchParam over the words of the messages', () => {
  test('whole words and prefixes (from 3 characters); every word of the text must be in the ticket (in any of its messages)', async () => {
    const { ticketWith, search } = await company()
    const refund = await ticketWith('Quero o reembolso do pedido 51446')
    const refundAndLate = await ticketWith('meu pedido atrasou', 'e agora quero REEMBOLSAR')
    const other = await ticketWith('bom dia, tudo bem?')
    expect(await search('reembolso')).toEqual([refund.id])
    expect(await search('reemb')).toEqual(sorted(refund.id, refundAndLate.id))
    expect(await search('REEMB')).toEqual(sorted(refund.id, refundAndLate.id))
    // Both words, from two messages of one ticket; one of them a prefix.
    expect(await search('atras reembolsar')).toEqual([refundAndLate.id])
    expect(await search('pedido reembolso')).toEqual([refund.id])
    expect(await search('5144')).toEqual([refund.id])
    expect(await search('bom dia')).toEqual([other.id])
    // A prefix is the beginning of a word, not any part of it; below 3 characters a word is whole.
    expect(await search('bolso')).toEqual([])
    expect(await search('di')).toEqual([])
    expect(await search('bom di')).toEqual([])
    expect(await search('reembolso atrasou')).toEqual([])
    // No word at all (punctuation only): no message matches.
    expect(await search('?!')).toEqual([])
  })

  test('accents are folded both ways, in upper and lower case, precomposed or combining', async () => {
    const { ticketWith, search } = await company()
    const accented = await ticketWith('Não recebi o reembolsó da DEVOLUÇÃO')
    const plain = await ticketWith('nao recebi o reembolso da devolucao')
    // Decomposed: "e" followed by U+0301 (combining acute), as some keyboards send it.
    const decomposed = await ticketWith('cafe\u0301 frio')
    const both = sorted(accented.id, plain.id)
    expect(await search('reembolsó')).toEqual(both)
    expect(await search('reembolso')).toEqual(both)
    expect(await search('não')).toEqual(both)
    expect(await search('nao')).toEqual(both)
    expect(await search('NÃO')).toEqual(both)
    expect(await search('devolução')).toEqual(both)
    expect(await search('devoluc')).toEqual(both)
    expect(await search('DEVOLUÇ')).toEqual(both)
    expect(await search('café')).toEqual([decomposed.id])
    expect(await search('cafe')).toEqual([decomposed.id])
  })

  test('an edited message is found by its new words only; the ticket keeps the words its other messages hold', async () => {
    const { companyId, ticketWith, search } = await company()
    const ticket = await ticketWith('quero trocar a geladeira', 'a geladeira chegou')
    const [first, second] = ticket.messageIds
    await context.db.update(messages).set({ body: 'quero trocar o fogão', isEdited: true }).where(eq(messages.id, first!))
    expect(await search('fogao')).toEqual([ticket.id])
    expect(await search('trocar')).toEqual([ticket.id])
    // "geladeira" is still in the second message.
    expect(await search('geladeira')).toEqual([ticket.id])
    await context.db.update(messages).set({ body: 'chegou', isEdited: true }).where(eq(messages.id, second!))
    expect(await search('geladeira')).toEqual([])
    expect(await search('chegou')).toEqual([ticket.id])
    // An update of anything else (acks, read marks) leaves the words as they are.
    await context.db.update(messages).set({ ack: 3, read: true }).where(eq(messages.ticketId, ticket.id))
    expect(await search('fogao')).toEqual([ticket.id])
    expect(await wordsOf(companyId, ticket.id)).toEqual(['chegou', 'fogao', 'o', 'quero', 'trocar'])
  })

  test('deleted messages do not match: soft-deleted (and found again when undeleted), deleted, or with their ticket', async () => {
    const { companyId, ticketWith, search } = await company()
    const ticket = await ticketWith('meu boleto venceu', 'segunda via do boleto')
    const [first, second] = ticket.messageIds
    // Stored already deleted: never a match.
    await context.db.insert(messages).values({ companyId, ticketId: ticket.id, body: 'mensagem apagada xilofone', isDeleted: true })
    expect(await search('xilofone')).toEqual([])
    await context.db.update(messages).set({ isDeleted: true }).where(eq(messages.id, first!))
    expect(await search('venceu')).toEqual([])
    expect(await search('boleto')).toEqual([ticket.id])
    await context.db.update(messages).set({ isDeleted: false }).where(eq(messages.id, first!))
    expect(await search('venceu')).toEqual([ticket.id])
    await context.db.delete(messages).where(eq(messages.id, second!))
    expect(await search('segunda')).toEqual([])
    expect(await search('boleto')).toEqual([ticket.id])
    await context.db.delete(messages).where(eq(messages.ticketId, ticket.id))
    expect(await search('boleto')).toEqual([])
    expect(await wordsOf(companyId, ticket.id)).toEqual([])
    // A deleted ticket takes its messages' words with it.
    const gone = await ticketWith('pix duplicado')
    await context.db.delete(tickets).where(eq(tickets.id, gone.id))
    expect(await wordsOf(companyId, gone.id)).toEqual([])
    expect(await search('pix')).toEqual([])
  })

  test("another company's messages never match, whatever the words", async () => {
    const mine = await company()
    const theirs = await company()
    const myTicket = await mine.ticketWith('cupom de desconto')
    const theirTicket = await theirs.ticketWith('cupom de desconto', 'Não chegou a promoção')
    expect(await mine.search('cupom')).toEqual([myTicket.id])
    expect(await mine.search('cup desc')).toEqual([myTicket.id])
    expect(await mine.search('promocao')).toEqual([])
    expect(await mine.search('nao')).toEqual([])
    expect(await theirs.search('cupom')).toEqual([theirTicket.id])
  })

  test('many messages written in one statement (as the inbound pipeline batches them) are all searchable', async () => {
    const { companyId, ticketWith, search } = await company()
    const ticketA = await ticketWith()
    const ticketB = await ticketWith()
    await context.db.insert(messages).values([
      { companyId, ticketId: ticketA.id, body: 'orçamento aprovado' },
      { companyId, ticketId: ticketB.id, body: 'orçamento recusado' },
      { companyId, ticketId: ticketA.id, body: 'orçamento de novo' },
    ])
    expect(await search('orcamento')).toEqual(sorted(ticketA.id, ticketB.id))
    expect(await search('aprov')).toEqual([ticketA.id])
    expect(await wordsOf(companyId, ticketA.id)).toEqual(['aprovado', 'de', 'novo', 'orcamento'])
  })
})

describe('search_fold(), the folding of the stored and the searched words', () => {
  // Its first definition (migration 0025), kept here as the reference: one translate() over the 53
  // accented letters and the 112 combining marks U+0300-U+036F. Migration 0026 made it cheaper; the
  // words already stored were folded by this one, so the new one must fold every text the same way.
  const firstFold = (text: SQL) =>
    sql`translate(lower(${text}), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ' || (select string_agg(chr(c), '' order by c) from generate_series(768, 879) c), 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy')`

  test('folds every character, and texts mixing them, exactly as its first definition did', async () => {
    // Every character up to U+052F (Latin, the combining marks, Greek, Cyrillic), then one in 37 up to
    // U+FFFF (surrogates have no character) and a few beyond; each alone, then in 2,000 mixed texts.
    const characters = sql`(select chr(c) as text from generate_series(1, 65535) c
      where (c <= 1327 or c % 37 = 0) and c not between 55296 and 57343
      union all select chr(c) from unnest(array[128512, 128075, 119070]) c)`
    const mixed = sql`(select string_agg(chr(case when k % 3 = 0 then 768 + (g * k) % 112 when k % 3 = 1 then 32 + (g * 31 + k) % 95 else 192 + (g * 7 + k * 13) % 400 end), '' order by k) as text
      from generate_series(1, 2000) g cross join generate_series(1, 24) k group by g)`
    for (const texts of [characters, mixed]) {
      const [row] = rowsOf<{ texts: number; differ: number }>(
        await context.db.execute(sql`
          select count(*)::int as texts, count(*) filter (where search_fold(t.text) is distinct from ${firstFold(sql`t.text`)})::int as differ
          from ${texts} t`),
      )
      expect(row!.texts).toBeGreaterThan(1900)
      expect(row!.differ).toBe(0)
    }
    // The marks are deleted, the letters mapped, ASCII only lowered.
    const [sample] = rowsOf<{ folded: string }>(await context.db.execute(sql`select search_fold('Cafe\u0301 NÃO Ýes ÀÇ ß 123') as folded`))
    expect(sample!.folded).toBe('cafe nao yes ac ß 123')
  })

  test('is inlined into the statements that call it (the words trigger parsed it again on every statement when it was not); NULL stays NULL', async () => {
    // Migration 0027: STRICT around a body that is not strict (a CASE) kept PostgreSQL from inlining.
    const plan = rowsOf<Record<string, string>>(await context.db.execute(sql`explain (verbose, costs off) select search_words(m.body) from messages m`))
      .map((row) => Object.values(row)[0])
      .join('\n')
    expect(plan).toContain('to_tsvector')
    expect(plan).not.toContain('search_words(')
    expect(plan).not.toContain('search_fold(')
    const [nulls] = rowsOf<{ fold: string | null; words: string[] | null }>(await context.db.execute(sql`select search_fold(null) as fold, search_words(null) as words`))
    expect(nulls).toEqual({ fold: null, words: null })
  })
})

async function wordsOf(companyId: number, ticketId: number): Promise<string[]> {
  const rows = await context.db
    .select({ word: ticketWords.word })
    .from(ticketWords)
    .where(and(eq(ticketWords.companyId, companyId), eq(ticketWords.ticketId, ticketId)))
    .orderBy(sql`${ticketWords.word}`)
  return rows.map((row) => row.word)
}
