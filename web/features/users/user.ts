// A user as the /users page holds it (§3 User), the `user` channel's events (§7 Realtime), and the user
// form's values, §5 checks and request body. Plain functions: the dialog renders, these decide.
import type { CreateUserBody, PublicUser, UpdateUserBody } from '../../../src/modules/users/model.ts'
import { isEmail, isStrongPassword, lengthBetween } from '../../forms/validation.ts'
import { serverFieldErrors } from '../../forms/server-errors.ts'

/** The list does not show timestamps; leaving them out also spares the wire's string-vs-Date question. */
export type UserRow = Omit<PublicUser, 'createdAt' | 'updatedAt'>
export type Profile = UserRow['profile']
export type AllTicket = UserRow['allTicket']


/** The profiles an admin gives, from the least to the most rights. */
export const profiles: Profile[] = ['user', 'supervisor', 'admin']

/** The longest password the server takes (every password follows §5's reset rule: isStrongPassword). */
export const PASSWORD_MAX = 200

export type UserFormValues = {
  name: string
  email: string
  /** Empty on an edit keeps the stored password. */
  password: string
  /** Your own password, to change it (the server asks for it on your own account only). */
  currentPassword?: string
  profile: Profile
  allTicket: AllTicket
  whatsappId: number | null
  queueIds: number[]
}

export type UserField = 'name' | 'email' | 'password' | 'currentPassword' | 'whatsappId' | 'queueIds'
/** Which rule each field broke; the dialog turns the rule into a translated text. */
export type UserFormErrors = Partial<Record<UserField, 'name' | 'email' | 'password' | 'passwordRequired' | 'currentPassword' | 'whatsappId' | 'queueIds' | 'emailTaken'>>

export function emptyUserForm(): UserFormValues {
  return { name: '', email: '', password: '', profile: 'user', allTicket: 'desabled', whatsappId: null, queueIds: [] }
}

export function userFormOf(user: UserRow): UserFormValues {
  return {
    name: user.name,
    email: user.email,
    password: '',
    profile: user.profile,
    allTicket: user.allTicket,
    whatsappId: user.whatsappId,
    queueIds: user.queues.map((queue) => queue.id),
  }
}

/** §5: the password is required for a new user and optional on an edit; when given, the reset rule (8+, upper, lower, digit). */
export function validateUserForm(values: UserFormValues, creating: boolean, options: { self?: boolean } = {}): UserFormErrors {
  const errors: UserFormErrors = {}
  if (!lengthBetween(values.name, 2, 50)) errors.name = 'name'
  if (!isEmail(values.email)) errors.email = 'email'
  if (creating && values.password.length === 0) errors.password = 'passwordRequired'
  else if (values.password.length > 0 && (!isStrongPassword(values.password) || values.password.length > PASSWORD_MAX)) errors.password = 'password'
  // Changing your own password takes the current one (issue 11 item 10c), here as in the profile.
  if (options.self && !creating && values.password.length > 0 && !values.currentPassword) errors.currentPassword = 'currentPassword'
  return errors
}

/**
 * The request body. Profile, allTicket and queues are sent only by those who may set them (§6
 * user-modal:editProfile / editQueues): the server refuses a change of them from anyone else.
 */
export function userBodyOf(values: UserFormValues, options: { creating: true; editAccess: boolean }): CreateUserBody
export function userBodyOf(values: UserFormValues, options: { creating: false; editAccess: boolean }): UpdateUserBody
export function userBodyOf(values: UserFormValues, options: { creating: boolean; editAccess: boolean }): CreateUserBody | UpdateUserBody {
  const access = options.editAccess ? { profile: values.profile, allTicket: values.allTicket, queueIds: values.queueIds } : {}
  const identity = { name: values.name.trim(), email: values.email.trim(), whatsappId: values.whatsappId, ...access }
  if (options.creating) return { ...identity, password: values.password }
  if (!values.password) return identity
  return values.currentPassword ? { ...identity, password: values.password, currentPassword: values.currentPassword } : { ...identity, password: values.password }
}

/** The server's refusal, on the fields it names (422) or the e-mail already in use (409). */
export function fieldErrorsOf(failure: { code: string; fields: { field: string }[] }): UserFormErrors {
  // The rule of each refused field is named after the field itself.
  const errors: UserFormErrors = serverFieldErrors(failure, { name: 'name', email: 'email', password: 'password', currentPassword: 'currentPassword', whatsappId: 'whatsappId', queueIds: 'queueIds' } as const)
  if (failure.code === 'ERR_EMAIL_ALREADY_EXISTS') errors.email = 'emailTaken'
  return errors
}

/** A live create or update for a list filtered by a search shows only users the server would list. */
export function matchesSearch(user: Pick<UserRow, 'name' | 'email'>, searchParam: string): boolean {
  const text = searchParam.trim().toLowerCase()
  return text === '' || user.name.toLowerCase().includes(text) || user.email.toLowerCase().includes(text)
}
