// Real server processes (`bun src/main.ts`) for the scale-out tests and benchmarks: several instances
// on one database and Redis, each on its own port, started, killed (-9) and stopped (SIGTERM) as an
// orchestrator would. Their output goes to files in a directory of the caller's (tailOf shows them
// when something fails).
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'

const root = resolve(import.meta.dir, '..', '..')

export type Instance = {
  /** One process: a restart is a new Instance (a new name, e.g. a2 after a1). */
  readonly name: string
  readonly url: string
  readonly child: Subprocess
  /** Whether the test counts on it: false from the moment it is killed or asked to stop. */
  up: boolean
  readonly logDir: string
}

/** Awaits a condition with a deadline (never a fixed sleep): polls every 25 ms. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await Bun.sleep(25)
  }
}

/**
 * A port that is free now, as the system hands them out (port 0). A random pick collided: 41000-61000
 * lies in the ephemeral range (32768-60999), where every outgoing connection of the suite takes its
 * local port ("Failed to start server. Is port … in use?", seen in the failover test).
 */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(null) })
  const port = probe.port!
  probe.stop(true)
  return port
}

/** Starts `bun src/main.ts` with `env` (PORT and HOST set here); its output goes to logDir/<name>.log and .err. */
export function startInstance(name: string, env: Record<string, string | undefined>, logDir: string, port = freePort()): Instance {
  const child = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdout: Bun.file(join(logDir, `${name}.log`)),
    stderr: Bun.file(join(logDir, `${name}.err`)),
  })
  return { name, url: `http://127.0.0.1:${port}`, child, up: true, logDir }
}

/** Resolves once the process answers /health/live. */
export async function waitLive(instance: Instance, timeoutMs = 40_000): Promise<void> {
  await until(
    `${instance.name} to answer /health/live`,
    async () => {
      if (instance.child.exitCode !== null) throw new Error(`${instance.name} exited with ${instance.child.exitCode}:\n${tailOf(instance)}`)
      return fetch(`${instance.url}/health/live`, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.ok,
        () => false,
      )
    },
    timeoutMs,
  )
}

/** kill -9: no shutdown code runs; leases, sockets and the spool are left as a crash leaves them. */
export async function crash(instance: Instance): Promise<void> {
  instance.up = false
  instance.child.kill('SIGKILL')
  await instance.child.exited
}

/** SIGTERM; resolves with how it ended: its exit code, or 'killed' when it was still running after graceMs (then SIGKILL). */
export async function stop(instance: Instance, graceMs = 20_000): Promise<number | 'killed'> {
  instance.up = false
  instance.child.kill('SIGTERM')
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    instance.child.kill('SIGKILL')
  }, graceMs)
  const code = await instance.child.exited
  clearTimeout(timer)
  return killed ? 'killed' : code
}

/** The last lines the instance wrote, for a failure message. */
export function tailOf(instance: Instance, chars = 2_000): string {
  return ['log', 'err']
    .map((extension) => join(instance.logDir, `${instance.name}.${extension}`))
    .filter((file) => existsSync(file))
    .map((file) => `--- ${file}\n${readFileSync(file, 'utf8').slice(-chars)}`)
    .join('\n')
}

/** Signs a user in over the API; the access token. */
export async function signInOver(url: string, user: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) })
  const body = (await response.json()) as { token?: string }
  if (!response.ok || !body.token) throw new Error(`sign-in of ${user.email} failed: ${response.status} ${JSON.stringify(body)}`)
  return body.token
}
