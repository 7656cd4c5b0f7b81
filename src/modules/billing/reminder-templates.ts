// The dunning e-mails (before the due date, on it, after it) in pt, en and es. Plain text through the
// existing mailer. The language comes from the company's country (no user language is stored on the
// server): Brazil or none in Portuguese, Spanish-speaking countries in Spanish, the rest in English.
import type { ReminderKind } from '../../../db/schema/index.ts'

export type MailLanguage = 'pt' | 'en' | 'es'

const spanishCountries = new Set(['ar', 'bo', 'cl', 'co', 'cr', 'cu', 'do', 'ec', 'es', 'gt', 'hn', 'mx', 'ni', 'pa', 'pe', 'py', 'sv', 'uy', 've'])

export function mailLanguageOf(country: string): MailLanguage {
  const code = country.trim().toLowerCase()
  if (code === '' || code === 'br' || code === 'brasil' || code === 'brazil') return 'pt'
  return spanishCountries.has(code) ? 'es' : 'en'
}

export type ReminderInput = {
  companyName: string
  /** Already formatted for the language (R$ 149,90). */
  amount: string
  /** dd/MM/yyyy. */
  dueDate: string
  /** dd/MM/yyyy: the first day the company is blocked if still unpaid. */
  blockedOn: string
  payUrl: string
}

type Template = (input: ReminderInput) => { subject: string; lines: string[] }

const templates: Record<MailLanguage, Record<ReminderKind, Template>> = {
  pt: {
    before: (input) => ({
      subject: `Sua fatura Zapdesk vence em ${input.dueDate}`,
      lines: [`Olá, ${input.companyName}.`, '', `A fatura de ${input.amount} vence em ${input.dueDate}.`, `Pague por Pix ou cartão em ${input.payUrl}`],
    }),
    due: (input) => ({
      subject: `Sua fatura Zapdesk vence hoje`,
      lines: [`Olá, ${input.companyName}.`, '', `A fatura de ${input.amount} vence hoje (${input.dueDate}).`, `Pague por Pix ou cartão em ${input.payUrl}`],
    }),
    after: (input) => ({
      subject: `Fatura Zapdesk em atraso: o acesso será bloqueado em ${input.blockedOn}`,
      lines: [
        `Olá, ${input.companyName}.`,
        '',
        `A fatura de ${input.amount}, vencida em ${input.dueDate}, ainda não foi paga.`,
        `Sem o pagamento, o acesso da empresa será bloqueado em ${input.blockedOn}.`,
        `Pague por Pix ou cartão em ${input.payUrl}`,
      ],
    }),
  },
  en: {
    before: (input) => ({
      subject: `Your Zapdesk invoice is due on ${input.dueDate}`,
      lines: [`Hello, ${input.companyName}.`, '', `Your invoice of ${input.amount} is due on ${input.dueDate}.`, `Pay by Pix or card at ${input.payUrl}`],
    }),
    due: (input) => ({
      subject: `Your Zapdesk invoice is due today`,
      lines: [`Hello, ${input.companyName}.`, '', `Your invoice of ${input.amount} is due today (${input.dueDate}).`, `Pay by Pix or card at ${input.payUrl}`],
    }),
    after: (input) => ({
      subject: `Overdue Zapdesk invoice: access will be blocked on ${input.blockedOn}`,
      lines: [
        `Hello, ${input.companyName}.`,
        '',
        `Your invoice of ${input.amount}, due on ${input.dueDate}, has not been paid yet.`,
        `Without payment, your company's access will be blocked on ${input.blockedOn}.`,
        `Pay by Pix or card at ${input.payUrl}`,
      ],
    }),
  },
  es: {
    before: (input) => ({
      subject: `Tu factura de Zapdesk vence el ${input.dueDate}`,
      lines: [`Hola, ${input.companyName}.`, '', `La factura de ${input.amount} vence el ${input.dueDate}.`, `Paga con Pix o tarjeta en ${input.payUrl}`],
    }),
    due: (input) => ({
      subject: `Tu factura de Zapdesk vence hoy`,
      lines: [`Hola, ${input.companyName}.`, '', `La factura de ${input.amount} vence hoy (${input.dueDate}).`, `Paga con Pix o tarjeta en ${input.payUrl}`],
    }),
    after: (input) => ({
      subject: `Factura de Zapdesk vencida: el acceso se bloqueará el ${input.blockedOn}`,
      lines: [
        `Hola, ${input.companyName}.`,
        '',
        `La factura de ${input.amount}, vencida el ${input.dueDate}, aún no se ha pagado.`,
        `Sin el pago, el acceso de la empresa se bloqueará el ${input.blockedOn}.`,
        `Paga con Pix o tarjeta en ${input.payUrl}`,
      ],
    }),
  },
}

const locales: Record<MailLanguage, string> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' }

export function formatAmount(value: number, language: MailLanguage): string {
  return new Intl.NumberFormat(locales[language], { style: 'currency', currency: 'BRL' }).format(value)
}

export function reminderMail(language: MailLanguage, kind: ReminderKind, input: ReminderInput): { subject: string; text: string } {
  const { subject, lines } = templates[language][kind](input)
  return { subject, text: lines.join('\n') }
}
