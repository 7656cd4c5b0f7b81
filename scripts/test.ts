// The whole test suite: prepares the migrated template database once, then runs every test file
// in parallel workers, each on its own copy. DATABASE_URL (or TEST_DATABASE_URL) selects PostgreSQL;
// without it the suite runs on embedded PGlite. Extra arguments go to `bun test` (a file, -t name).
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ensurePgliteTemplate, ensurePostgresTemplate, testDatabaseUrl } from '../tests/helpers/database.ts'

const root = resolve(import.meta.dir, '..')
const url = testDatabaseUrl()
const started = performance.now()
if (url) await ensurePostgresTemplate(url)
else await ensurePgliteTemplate()
console.log(`test database: ${url ? 'PostgreSQL' : 'PGlite'} template ready in ${Math.round(performance.now() - started)} ms`)

const args = process.argv.slice(2)
const targets = args.some((arg) => !arg.startsWith('-')) ? [] : ['tests/integration', 'tests/e2e', 'src', 'jobs', 'web']
const reportDir = join(root, '.test-tmp')
mkdirSync(reportDir, { recursive: true })
const report = join(reportDir, `junit-${process.pid}.xml`)
const workers = process.env.TEST_WORKERS ?? '2'
// bunfig's [test] timeout is not applied to --parallel workers here: the same limit on the command line.
const child = Bun.spawn(['bun', 'test', `--parallel=${workers}`, '--timeout=30000', '--reporter=junit', `--reporter-outfile=${report}`, ...targets, ...args], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit'],
  env: process.env,
})
const exitCode = await child.exited

// One plain closing line, whatever the runner printed above it.
try {
  const xml = readFileSync(report, 'utf8')
  const suite = /<testsuites[^>]*tests="(\d+)"[^>]*failures="(\d+)"[^>]*skipped="(\d+)"/.exec(xml) ?? /<testsuites[^>]*tests="(\d+)"[^>]*failures="(\d+)"/.exec(xml)
  if (suite) {
    const [total, failures, skipped = '0'] = suite.slice(1).map(Number) as [number, number, number?]
    const passed = total - failures - Number(skipped)
    console.log(`\n${passed} passed, ${failures} failed, ${skipped} skipped`)
  }
  rmSync(report, { force: true })
} catch {
  // No report (the runner died early): the exit code below still says so.
}
process.exit(exitCode)
