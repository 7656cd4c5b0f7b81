// Outgoing mail. Every mail is kept in the outbox table; with SMTP_HOST set it is also sent over
// SMTP, otherwise it is logged and the CLI (`zapdesk mail outbox`) prints it. A mail holding a secret
// is kept without its text when it goes out over SMTP (Mail.secret).
import { eq } from 'drizzle-orm'
import type { Config } from '../config.ts'
import type { Database } from '../../db/client.ts'
import { mailOutbox } from '../../db/schema/index.ts'
import type { Logger } from './logger.ts'

/**
 * `secret`: the text holds a credential (a password-reset code). With SMTP it goes out from memory and
 * the outbox keeps only a placeholder, so that a database reader or a backup cannot use it; without
 * SMTP the outbox is how the operator delivers mail (`zapdesk mail outbox`), so it keeps the text.
 */
export type Mail = { to: string; subject: string; text: string; secret?: boolean }

/** What the outbox keeps of a secret mail sent over SMTP. */
export const SECRET_MAIL_PLACEHOLDER = '[not kept: this mail held a secret and went out over SMTP]'

export function createMailer(db: Database, smtp: Config['smtp'], logger: Logger) {
  // nodemailer (about 18 MB of resident memory once loaded) only when mail goes out over SMTP.
  const transport = smtp.host
    ? (require('nodemailer') as typeof import('nodemailer')).createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
      })
    : undefined

  return {
    async send(mail: Mail): Promise<void> {
      const kept = mail.secret && transport ? SECRET_MAIL_PLACEHOLDER : mail.text
      const [row] = await db.insert(mailOutbox).values({ to: mail.to, subject: mail.subject, text: kept }).returning({ id: mailOutbox.id })
      if (!transport) {
        logger.info('mail kept in the outbox (no SMTP_HOST)', { to: mail.to, subject: mail.subject })
        return
      }
      try {
        await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text })
        await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row!.id))
      } catch (error) {
        // The reset flow must not reveal SMTP trouble to the caller; the outbox keeps the mail and the reason.
        logger.error('mail could not be sent', { to: mail.to, error })
        await db.update(mailOutbox).set({ error: String(error) }).where(eq(mailOutbox.id, row!.id))
      }
    },
  }
}

export type Mailer = ReturnType<typeof createMailer>
