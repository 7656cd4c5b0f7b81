// The one renderer of the message variables (§9 {{firstName}}, {{name}}, {{ms}}, {{protocol}},
// {{hora}}, plus {{email}} and {{number}} and a company's own variables, such as the campaign
// variables of §7). Greetings, transfer texts, the chatbot, schedules, campaigns, AI prompts and
// integrations all render through it, so a variable means the same thing wherever a text goes out.

export type TemplateContact = { name: string; email?: string | null; number?: string | null }

export type TemplateContext = {
  contact?: TemplateContact
  /** The ticket the text belongs to; {{protocol}} ends with its id (nothing when there is none). */
  ticketId?: number
  now: Date
  /** The company's IANA time zone for {{ms}}, {{hora}} and {{protocol}}; UTC when unknown. */
  timezone: string
  /** Extra variables by key (a company's campaign variables). The built-in ones win a clash. */
  extra?: Record<string, string>
}

/** The variables every text may hold, in the order the pickers offer them. */
export const builtInVariables = ['firstName', 'name', 'email', 'number', 'ms', 'protocol', 'hora'] as const

function partsIn(timezone: string, at: Date): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
  return Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]))
}

/** Bom dia / Boa tarde / Boa noite, by the hour in the company's time zone (§9 {{ms}}). */
export function greetingOfHour(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia'
  if (hour >= 12 && hour < 18) return 'Boa tarde'
  return 'Boa noite'
}

/** The value of every variable for this context. */
export function templateValues(context: TemplateContext): Record<string, string> {
  let parts: Record<string, string>
  try {
    parts = partsIn(context.timezone, context.now)
  } catch {
    // A stored time zone Intl does not know must not stop a message from going out.
    parts = partsIn('UTC', context.now)
  }
  const name = context.contact?.name.trim() ?? ''
  return {
    ...context.extra,
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    email: context.contact?.email ?? '',
    number: context.contact?.number ?? '',
    ms: greetingOfHour(Number(parts.hour)),
    protocol: `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${context.ticketId ?? ''}`,
    hora: `${parts.hour}:${parts.minute}:${parts.second}`,
  }
}

/**
 * Replaces each `{{key}}` (spaces inside the braces allowed) by its value. A key that is not a
 * variable stays as written, so a typo shows in the sent text rather than vanishing silently.
 */
export function renderTemplate(text: string, context: TemplateContext): string {
  const values = templateValues(context)
  return text.replace(/\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? values[key]! : whole))
}
