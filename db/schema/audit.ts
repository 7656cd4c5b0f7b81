// Who did what, when, from where: one row per admin action (users, queues, connections, settings,
// plans, companies, deletions, exports, 2FA). No foreign keys on purpose: the trail outlives what it
// describes (a deleted company's or user's actions stay readable until the retention purge).
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** The company the action concerns; null for platform-wide ones (plans). */
    companyId: integer(),
    /** Null when no signed-in user caused it (a job, a signup). */
    actorUserId: integer(),
    /** 'user.update', 'setting.update', 'ticket.delete', 'contact.export', 'two_factor.reset', ... */
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    ip: text(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_company_created_idx').on(table.companyId, table.createdAt.desc(), table.id.desc()),
    // Super users' list of every company, and the retention purge.
    index('audit_log_created_idx').on(table.createdAt),
    index('audit_log_entity_idx').on(table.companyId, table.entity, table.entityId, table.id.desc()),
  ],
)
