// The first-start seed (src/seed.ts) when several instances boot together on a new database: each runs
// it at once, and only the first creates the platform's accounts; none stops on a duplicate.
import { afterAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema/index.ts'
import { SUPER_EMAIL, seedPlatform } from '../../src/seed.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let database: TestDatabase | undefined
afterAll(async () => {
  await database?.drop()
})

test('instances seeding a new database at the same time: one super user, the password told once', async () => {
  database = await createTestDatabase()
  const results = await Promise.all(Array.from({ length: 3 }, () => seedPlatform(database!.db, { demo: true })))
  expect(results.flatMap((result) => result.created.map((account) => account.email)).sort()).toEqual(['admin@demo.zapdesk.local', 'admin@zapdesk.local', 'agent@demo.zapdesk.local'])
  expect(await database.db.select({ id: users.id }).from(users).where(eq(users.email, SUPER_EMAIL))).toHaveLength(1)
})
