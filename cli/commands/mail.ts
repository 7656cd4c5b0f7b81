import type { Command } from 'commander'
import { desc } from 'drizzle-orm'
import { mailOutbox } from '../../db/schema/index.ts'
import { EMBEDDED_DATABASE_NOTE, withDatabase } from '../database.ts'
import { integerOption } from '../options.ts'
import { printJson } from '../output.ts'

type OutboxRow = typeof mailOutbox.$inferSelect

function deliveryOf(mail: OutboxRow): string {
  if (mail.sentAt) return `sent ${mail.sentAt.toISOString()}`
  if (mail.error) return `not sent: ${mail.error.split('\n')[0]}`
  return 'kept in the outbox (no SMTP_HOST)'
}

export function registerMail(program: Command): void {
  const group = program.command('mail').description('mail the platform sent or kept').addHelpText('after', EMBEDDED_DATABASE_NOTE)

  group
    .command('outbox')
    .description('print the kept mails, newest first (password reset codes when no SMTP server is configured)')
    .option('--limit <n>', 'how many mails, 1 to 1000', integerOption('limit', { min: 1, max: 1000 }), 20)
    .option('--json', 'print the mails as JSON')
    .action(async (options: { limit: number; json?: boolean }) => {
      const mails = await withDatabase((db) => db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(options.limit))
      if (options.json) return printJson(mails)
      if (mails.length === 0) return console.log('(no mail)')
      // A mail's text has several lines: one block per mail reads better than a table.
      for (const mail of mails) {
        console.log(`#${mail.id}  ${mail.createdAt.toISOString()}  to ${mail.to}  (${deliveryOf(mail)})`)
        console.log(`  Subject: ${mail.subject}`)
        for (const line of mail.text.split('\n')) console.log(`  ${line}`.trimEnd())
        console.log('')
      }
    })
}
