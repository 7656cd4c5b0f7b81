// The texts the platform sends on its own when a ticket changes hands. The texts a user wrote (a
// connection's greeting, completion, out-of-hours and rating messages, the queues' and options' texts,
// scheduled messages) have their §9 variables filled by the one renderer, core/templates/render.ts.

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
