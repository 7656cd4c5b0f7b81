// The names of the §3 priorities, apart from announcement-row.ts so that its rules test without the lingui macros.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { asPriority, type Priority } from './announcement-row.ts'

const priorityLabels: Record<Priority, MessageDescriptor> = { 1: msg`High`, 2: msg`Medium`, 3: msg`Low` }

export function priorityLabel(priority: number): MessageDescriptor {
  return priorityLabels[asPriority(priority)]
}
