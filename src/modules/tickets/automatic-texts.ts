// The texts the platform sends on its own when a ticket changes hands, and the message variables of
// §9 ({{firstName}}, {{name}}, {{ms}}, {{protocol}}, {{hora}}) that a connection's texts may hold.

/** Sent on accept when the setting sendGreetingAccepted is enabled (not to groups). */
export function acceptGreeting(agentName: string): string {
  return `Olá! Meu nome é *${agentName}* e, a partir de agora, vou continuar o seu atendimento.`
}

/** Sent on transfer when the setting sendMsgTransfTicket is enabled. */
export function transferNotice(to: { queueName?: string; userName?: string }): string {
  const lines = ['*Mensagem automática*:']
  if (to.queueName && to.userName) lines.push(`Você foi transferido para o setor *${to.queueName}* e será atendido por *${to.userName}*.`)
  else if (to.queueName) lines.push(`Você foi transferido para o setor *${to.queueName}*.`)
  else lines.push(`Você foi transferido para o atendente *${to.userName ?? ''}*.`)
  lines.push('Aguarde, já vamos te atender!')
  return lines.join('\n')
}

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

/** Bom dia / Boa tarde / Boa noite, by the hour in the company's time zone. */
export function greetingOfHour(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia'
  if (hour >= 12 && hour < 18) return 'Boa tarde'
  return 'Boa noite'
}

/** Fills the §9 variables of a text for a contact and ticket, at `now` in the company's time zone. */
export function fillMessageVariables(text: string, input: { contactName: string; ticketId: number; now: Date; timezone: string }): string {
  let parts: Record<string, string>
  try {
    parts = partsIn(input.timezone, input.now)
  } catch {
    parts = partsIn('UTC', input.now)
  }
  const values: Record<string, string> = {
    firstName: input.contactName.trim().split(/\s+/)[0] ?? '',
    name: input.contactName.trim(),
    ms: greetingOfHour(Number(parts.hour)),
    protocol: `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${input.ticketId}`,
    hora: `${parts.hour}:${parts.minute}:${parts.second}`,
  }
  return text.replace(/\{\{\s*(firstName|name|ms|protocol|hora)\s*\}\}/g, (_whole, key: string) => values[key] ?? '')
}
