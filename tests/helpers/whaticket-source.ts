// A Whaticket database for the import tests: created on the test PostgreSQL server from our fixture of
// its schema (tests/fixtures/whaticket-schema.sql), filled with two companies' worth of realistic rows,
// and dropped afterwards. Ids are Whaticket's own; the tests refer to them.
import postgres from 'postgres'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const WHATICKET_PASSWORD = 'whaticket123'

/** The media file one message names: a tiny PNG, in the company2/ folder as Atendechat stores them. */
const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (character) => character.charCodeAt(0))

export type WhaticketSource = Awaited<ReturnType<typeof createWhaticketSource>>

export async function createWhaticketSource(serverUrl: string) {
  const name = `whaticket_src_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const adminUrl = new URL(serverUrl)
  adminUrl.pathname = '/postgres'
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })
  await sql.file(resolve(import.meta.dir, '..', 'fixtures', 'whaticket-schema.sql')).simple()
  // bcryptjs writes $2a$ hashes; Bun writes $2b$, the same algorithm.
  const passwordHash = (await Bun.password.hash(WHATICKET_PASSWORD, { algorithm: 'bcrypt', cost: 4 })).replace(/^\$2b\$/, '$2a$')
  await fill(sql, passwordHash)

  const media = mkdtempSync(join(tmpdir(), 'whaticket-public-'))
  mkdirSync(join(media, 'company2'))
  writeFileSync(join(media, 'company2', 'foto-pedido.png'), png)

  return {
    url: url.toString(),
    sql,
    media,
    async drop() {
      await sql.end({ timeout: 5 })
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await admin.end({ timeout: 5 })
      rmSync(media, { recursive: true, force: true })
    },
  }
}

async function fill(sql: postgres.Sql, passwordHash: string): Promise<void> {
  const at = (day: number, time = '10:00') => `2026-10-${String(day).padStart(2, '0')}T${time}:00-03:00`
  await sql.unsafe(`
    INSERT INTO "Plans" ("id", "name", "users", "connections", "queues", "value", "useKanban", "useOpenAi", "createdAt", "updatedAt") VALUES
      (1, 'Plano Interno', 99, 99, 99, 0, true, true, now(), now()),
      (2, 'Plano Loja', 10, 2, 5, 149, true, false, now(), now());
    SELECT setval('"Plans_id_seq"', 2);
    INSERT INTO "Companies" ("id", "name", "phone", "email", "planId", "status", "dueDate", "recurrence", "schedules", "createdAt", "updatedAt") VALUES
      (1, 'Whaticket Plataforma', '', 'admin@whaticket.test', 1, true, '2093-03-14T00:00:00-03:00', 'MENSAL', '[]', now(), now()),
      (2, 'Loja da Esquina', '(11) 3333-4444', 'contato@lojadaesquina.test', 2, true, '2031-01-15T00:00:00-03:00', 'MENSAL',
       '[{"weekday":"Segunda-feira","weekdayEn":"monday","startTime":"08:00","endTime":"18:00"}]', now(), now());
    SELECT setval('"Companies_id_seq"', 2);
    INSERT INTO "Queues" ("id", "name", "color", "greetingMessage", "companyId", "orderQueue", "createdAt", "updatedAt") VALUES
      (1, 'Suporte', '#1E88E5', 'Bem-vindo ao suporte', 1, 1, now(), now()),
      (2, 'Vendas', '#43A047', 'Olá! Vamos às compras?', 2, 1, now(), now()),
      (3, 'Financeiro', '#FB8C00', '', 2, 2, now(), now());
    SELECT setval('"Queues_id_seq"', 3);
    INSERT INTO "QueueOptions" ("id", "title", "message", "option", "queueId", "parentId", "createdAt", "updatedAt") VALUES
      (2, 'Catálogo', 'Veja nosso catálogo', '1', 2, NULL, now(), now()),
      (3, 'Pedidos', 'Sobre pedidos', '2', 2, NULL, now(), now());
    INSERT INTO "QueueOptions" ("id", "title", "message", "option", "queueId", "parentId", "createdAt", "updatedAt") VALUES
      (1, 'Segunda via', 'A segunda via vai por e-mail', '1', 2, 3, now(), now());
    SELECT setval('"QueueOptions_id_seq"', 3);
    INSERT INTO "Whatsapps" ("id", "name", "session", "status", "isDefault", "companyId", "greetingMessage", "token", "maxUseBotQueues", "transferQueueId", "createdAt", "updatedAt") VALUES
      (1, 'Plataforma', '{"creds":"secret-session"}', 'CONNECTED', true, 1, '', NULL, 3, NULL, now(), now()),
      (2, 'Loja Principal', '{"creds":"secret-session"}', 'CONNECTED', true, 2, 'Olá, bem-vindo à Loja!', 'loja-api-token-123', 2, 2, now(), now()),
      (3, 'Loja Entregas', NULL, 'DISCONNECTED', false, 2, '', NULL, 3, NULL, now(), now());
    SELECT setval('"Whatsapps_id_seq"', 3);
    INSERT INTO "WhatsappQueues" ("whatsappId", "queueId", "createdAt", "updatedAt") VALUES (2, 2, now(), now()), (2, 3, now(), now()), (1, 1, now(), now());
    INSERT INTO "Users" ("id", "name", "email", "passwordHash", "profile", "companyId", "super", "whatsappId", "createdAt", "updatedAt") VALUES
      (1, 'Admin Plataforma', 'admin@whaticket.test', '${passwordHash}', 'admin', 1, true, NULL, now(), now()),
      (2, 'Maria Souza', 'maria@lojadaesquina.test', '${passwordHash}', 'admin', 2, false, 2, now(), now()),
      (3, 'João Lima', 'joao@lojadaesquina.test', '${passwordHash}', 'user', 2, false, NULL, now(), now()),
      (4, 'Duplicado', 'taken@zapdesk.test', '${passwordHash}', 'user', 2, false, NULL, now(), now());
    SELECT setval('"Users_id_seq"', 4);
    INSERT INTO "UserQueues" ("userId", "queueId", "createdAt", "updatedAt") VALUES (2, 2, now(), now()), (3, 2, now(), now()), (3, 3, now(), now()), (1, 1, now(), now());
    INSERT INTO "Contacts" ("id", "name", "number", "email", "isGroup", "companyId", "whatsappId", "createdAt", "updatedAt") VALUES
      (10, 'Ana Cliente', '5511987654321', 'ana@example.test', false, 2, 2, now(), now()),
      (11, 'Bruno Costa', '5521912345678', '', false, 2, 2, now(), now()),
      (12, 'Grupo Atacado', '120363025246125888', '', true, 2, 2, now(), now()),
      (20, 'Carlos Mendes', '5531999990000', '', false, 1, 1, now(), now());
    SELECT setval('"Contacts_id_seq"', 20);
    INSERT INTO "ContactCustomFields" ("name", "value", "contactId", "createdAt", "updatedAt") VALUES
      ('CPF', '123.456.789-00', 10, now(), now()), ('Cidade', 'São Paulo', 10, now(), now());
    INSERT INTO "Tickets" ("id", "status", "lastMessage", "contactId", "userId", "whatsappId", "queueId", "companyId", "unreadMessages", "createdAt", "updatedAt") VALUES
      (100, 'open', 'Chegou, obrigada!', 10, 3, 2, 2, 2, 0, '${at(20)}', '${at(20, '10:05')}'),
      (101, 'closed', 'Até mais', 11, 2, 3, 3, 2, 0, '${at(10)}', '${at(10, '11:00')}'),
      (102, 'pending', 'Oi?', 11, NULL, NULL, NULL, 2, 1, '${at(21)}', '${at(21)}'),
      (103, 'pending', 'Alguém aí?', 11, NULL, NULL, NULL, 2, 1, '${at(22)}', '${at(22)}'),
      (110, 'pending', 'Preciso de ajuda', 20, NULL, 1, 1, 1, 1, '${at(23)}', '${at(23)}'),
      -- Damaged: a ticket of the store whose contact is the platform company's.
      (105, 'closed', '', 20, NULL, 2, NULL, 2, 0, '${at(9)}', '${at(9)}');
    SELECT setval('"Tickets_id_seq"', 110);
    INSERT INTO "Messages" ("id", "body", "ack", "read", "mediaType", "mediaUrl", "ticketId", "fromMe", "contactId", "quotedMsgId", "companyId", "createdAt", "updatedAt") VALUES
      ('3EB0A1', 'Olá, meu pedido chegou com defeito', 0, true, 'chat', NULL, 100, false, 10, NULL, 2, '${at(20, '10:00')}', '${at(20, '10:00')}'),
      ('3EB0A3', 'Foto do pedido', 0, true, 'image', 'foto-pedido.png', 100, false, 10, NULL, 2, '${at(20, '10:01')}', '${at(20, '10:01')}'),
      ('3EB0A4', 'Vamos trocar hoje mesmo', 3, true, 'chat', NULL, 100, true, 10, NULL, 2, '${at(20, '10:03')}', '${at(20, '10:03')}'),
      ('3EB0A5', '', 0, true, 'audio', 'audio-sumido.ogg', 100, false, 10, NULL, 2, '${at(20, '10:04')}', '${at(20, '10:04')}'),
      ('3EB0A6', 'Chegou, obrigada!', 0, true, 'chat', NULL, 100, false, 10, NULL, 2, '${at(20, '10:05')}', '${at(20, '10:05')}'),
      ('B1', 'Qual o prazo de entrega?', 0, true, 'chat', NULL, 101, false, 11, NULL, 2, '${at(10, '10:00')}', '${at(10, '10:00')}'),
      ('B2', 'Até mais', 3, true, 'chat', NULL, 101, true, 11, NULL, 2, '${at(10, '11:00')}', '${at(10, '11:00')}'),
      ('C1', 'Preciso de ajuda', 0, false, 'chat', NULL, 110, false, 20, NULL, 1, '${at(23)}', '${at(23)}');
    -- A reply that quotes the first message, whose key sorts after it: linked once all are in.
    INSERT INTO "Messages" ("id", "body", "ack", "read", "mediaType", "ticketId", "fromMe", "contactId", "quotedMsgId", "companyId", "createdAt", "updatedAt") VALUES
      ('3EB0A2', 'Sinto muito! Pode mandar uma foto?', 3, true, 'extendedTextMessage', 100, true, 10, '3EB0A1', 2, '${at(20, '10:02')}', '${at(20, '10:02')}'),
      ('0QUOTE', 'Sobre isto:', 3, true, 'chat', 100, true, 10, '3EB0A6', 2, '${at(20, '10:06')}', '${at(20, '10:06')}');
    INSERT INTO "Tags" ("id", "name", "color", "companyId", "kanban", "createdAt", "updatedAt") VALUES
      (1, 'VIP', '#E53935', 2, 0, now(), now()), (2, 'Troca', '#8E24AA', 2, 1, now(), now());
    INSERT INTO "TicketTags" ("ticketId", "tagId", "createdAt", "updatedAt") VALUES (100, 1, now(), now()), (100, 2, now(), now()), (101, 1, now(), now());
    INSERT INTO "QuickMessages" ("shortcode", "message", "companyId", "userId", "createdAt", "updatedAt") VALUES
      ('ola', 'Olá! Como posso ajudar?', 2, 2, now(), now()), ('pix', 'Nossa chave Pix é o CNPJ', 2, NULL, now(), now());
    INSERT INTO "Schedules" ("body", "sendAt", "sentAt", "contactId", "ticketId", "userId", "companyId", "status", "createdAt", "updatedAt") VALUES
      ('Lembrete: sua troca chega amanhã', '2030-01-10T09:00:00-03:00', NULL, 10, 100, 3, 2, 'PENDENTE', now(), now()),
      ('Obrigado pela compra', '2026-10-11T09:00:00-03:00', '2026-10-11T09:00:05-03:00', 11, 101, 2, 2, 'ENVIADA', now(), now());
    INSERT INTO "Settings" ("key", "value", "companyId", "createdAt", "updatedAt") VALUES
      ('userRating', 'enabled', 2, now(), now()), ('scheduleType', 'queue', 2, now(), now()), ('userApiToken', 'abc', 2, now(), now()), ('call', 'disabled', 1, now(), now());
  `).simple()
}
