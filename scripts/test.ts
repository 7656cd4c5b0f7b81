// The whole test suite: prepares the migrated template database once, then runs every test file
// in parallel workers, each on its own copy. DATABASE_URL (or TEST_DATABASE_URL) selects PostgreSQL;
// without it the suite runs on embedded PGlite. Extra arguments go to `bun test` (a file, -t name),
// except `--engine-only`: only the tests whose result can depend on the database engine (the
// integration tests, CLI included, and the unit tests under src/ and jobs/ that open a test database),
// not the browser tests nor the pure unit tests. CI runs the whole suite on PostgreSQL and this part
// again on PGlite.
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ensurePgliteTemplate, ensurePostgresTemplate, testDatabaseUrl } from '../tests/helpers/database.ts'

const root = resolve(import.meta.dir, '..')
const url = testDatabaseUrl()
const started = performance.now()
if (url) await ensurePostgresTemplate(url)
else await ensurePgliteTemplate()
console.log(`test database: ${url ? 'PostgreSQL' : 'PGlite'} template ready in ${Math.round(performance.now() - started)} ms`)

const engineOnly = process.argv.includes('--engine-only')
const args = process.argv.slice(2).filter((arg) => arg !== '--engine-only')
const everything = engineOnly ? ['tests/integration', ...unitTestsOnADatabase(['src', 'jobs'])] : ['tests/integration', 'tests/e2e', 'src', 'jobs', 'web', 'cli']
const targets = args.some((arg) => !arg.startsWith('-')) ? [] : everything
const reportDir = join(root, '.test-tmp')
mkdirSync(reportDir, { recursive: true })
const report = join(reportDir, `junit-${process.pid}.xml`)
const workers = process.env.TEST_WORKERS ?? '2'
// How long each file took (tests/timings.json, bun's format, ms): with it the workers start the longest
// files first and take the longest one left when they run dry, so no worker is left alone at the end
// with a 40 s browser file. Without it bun cuts the files sorted by path into one chunk per worker,
// whatever they take. A file not listed counts as the median. Refresh it from a run on a quiet
// machine: `DATABASE_URL=… REDIS_URL=… npm test -- --update-timings` (the PostgreSQL pass: it has
// the browser files; the entries of the files it ran are replaced, the others kept).
const timings = join(root, 'tests', 'timings.json')
// bunfig's [test] timeout is not applied to --parallel workers here: the same limit on the command line.
// --no-isolate: a worker keeps its global and module registry from one file to the next instead of
// starting each file in a fresh one. Every file still opens its own database, server and browser and
// closes them in afterAll; what it shares is the loaded code, already parsed and warmed up. A fresh
// global cost each file ~0.5 s of CPU to load the app again, and on PGlite ~0.3 s more to compile its
// WebAssembly: measured on this 2-core machine, the PGlite pass took 124 s instead of 227 s, the
// PostgreSQL pass 473 s instead of 520 s. The price: a file that leaves something behind (a timer, a
// mocked module, a changed process.env) can disturb the next one in its worker; the tests restore what
// they change (setSystemTime(), spies) and close what they open.
const child = Bun.spawn(['bun', 'test', `--parallel=${workers}`, '--no-isolate', `--timings=${timings}`, '--timeout=30000', '--reporter=junit', `--reporter-outfile=${report}`, ...targets, ...args], {
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
    // The ten slowest files, so that a slow newcomer is seen in every CI log.
    const files = [...xml.matchAll(/^  <testsuite name="[^"]*" file="([^"]+)"[^>]*? time="([\d.]+)"/gm)].map(([, file, time]) => ({ file: file!, seconds: Number(time) }))
    if (files.length > 1) {
      console.log('\nslowest files:')
      for (const { file, seconds } of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`)
    }
    // What each failed test said, here at the end: CI shows only the log's tail, and a failure's
    // message scrolled out of it among 1,500 passing lines.
    for (const failure of failuresOf(xml)) console.log(`\nFAILED ${failure.file} > ${failure.name}\n${failure.body}`)
    console.log(`\n${passed} passed, ${failures} failed, ${skipped} skipped`)
  }
  rmSync(report, { force: true })
} catch {
  // No report (the runner died early): the exit code below still says so.
}
process.exit(exitCode)

/**
 * The test files under `dirs` that open a test database (through tests/helpers/database.ts or
 * context.ts): the unit tests whose result can depend on the engine. A pure one would only run twice.
 */
function unitTestsOnADatabase(dirs: string[]): string[] {
  const opensADatabase = /helpers\/(database|context)(\.ts)?['"]/
  return dirs.flatMap((dir) =>
    [...new Bun.Glob('**/*.test.ts').scanSync({ cwd: join(root, dir) })]
      .map((file) => join(dir, file))
      .filter((file) => opensADatabase.test(readFileSync(join(root, file), 'utf8')))
      .sort(),
  )
}

/** The failed test cases of a junit report, each with its failure's text (capped: a diff can be long). */
function failuresOf(xml: string, cap = 6_000): { file: string; name: string; body: string }[] {
  const decode = (text: string) => text.replace(/&#10;/g, '\n').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
  // A timed-out test's failure is an empty element: its message attribute is all it says.
  return [...xml.matchAll(/<testcase name="([^"]*)"[^>]*? file="([^"]*)"[^>]*>\s*<failure([^>]*?)(?:\/>|>([\s\S]*?)<\/failure>)/g)].map(([, name, file, attributes, body]) => {
    const text = decode(body ?? /message="([^"]*)"/.exec(attributes ?? '')?.[1] ?? '')
    return { file: file!, name: decode(name!), body: text.length > cap ? `${text.slice(0, cap)}\n… (${text.length - cap} more characters)` : text }
  })
}
