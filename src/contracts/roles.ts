// Who is acting and what his profile lets him do (spec §6), one rule for the server and the web app.
// A shared contract: the web bundle imports these values, so this file imports nothing but types.
import type { Profile } from '../../db/schema/users.ts'

export type { Profile }

/** Who is acting: a signed-in user of a company, with his profile and the platform's super flag. */
export type Actor = { userId: number; companyId: number; profile: Profile; super: boolean }

/** What a role rule reads; the web's session user has it too. Null is nobody (signed out, loading). */
export type RoleHolder = { profile: string; super: boolean }

/** Profile admin; platform super users count as admins of every company they act on. */
export function isAdmin(actor: RoleHolder | null | undefined): boolean {
  return actor != null && (actor.profile === 'admin' || actor.super)
}

/** Admins (super users included) and supervisors: the kanban toggle of tags and who manages tags (§6). */
export function isSupervisorOrAdmin(actor: RoleHolder | null | undefined): boolean {
  return isAdmin(actor) || actor?.profile === 'supervisor'
}
