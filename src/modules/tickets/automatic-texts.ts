// The texts the platform sends on its own when a ticket changes hands, and the message variables of
// §9 that a connection's texts may hold (rendered by the one renderer, core/templates/render.ts).
import { renderTemplate } from '../../core/templates/render.ts'

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

/** Fills the §9 variables of a text for a contact and ticket, at `now` in the company's time zone. */
export function fillMessageVariables(text: string, input: { contactName: string; ticketId: number; now: Date; timezone: string }): string {
  return renderTemplate(text, { contact: { name: input.contactName }, ticketId: input.ticketId, now: input.now, timezone: input.timezone })
}
