// The audit log's action names (server side: modules/audit/listener.ts) and how each is read.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export const auditActionLabels: Record<string, MessageDescriptor> = {
  'user.create': msg`User created`,
  'user.update': msg`User edited`,
  'user.delete': msg`User deleted`,
  'queue.create': msg`Queue created`,
  'queue.update': msg`Queue edited`,
  'queue.delete': msg`Queue deleted`,
  'whatsapp.create': msg`Connection created`,
  'whatsapp.update': msg`Connection edited`,
  'whatsapp.delete': msg`Connection deleted`,
  'setting.update': msg`Setting changed`,
  'plan.create': msg`Plan created`,
  'plan.update': msg`Plan edited`,
  'plan.delete': msg`Plan deleted`,
  'company.create': msg`Company created`,
  'company.update': msg`Company edited`,
  'company.delete': msg`Company deleted`,
  'ticket.delete': msg`Ticket deleted`,
  'contact.delete': msg`Contact deleted`,
  'message.delete': msg`Message deleted`,
  'contact.export': msg`Contacts exported`,
  'two_factor.enable': msg`Two-factor turned on`,
  'two_factor.disable': msg`Two-factor turned off`,
  'two_factor.reset': msg`Two-factor reset`,
}

export const auditActions = Object.keys(auditActionLabels)
