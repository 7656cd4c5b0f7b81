// The names of the user profiles (§3 User: user, admin; supervisor seen), in the user's language.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Profile } from './user.ts'

export const profileLabels: Record<Profile, MessageDescriptor> = {
  admin: msg`Administrator`,
  supervisor: msg`Supervisor`,
  user: msg`Agent`,
}
