// The deployment files, checked where no container daemon runs (issue 17 item 1): docker-compose.yml
// parsed and held against what the server reads (src/config.ts), the proxy's Caddyfile against the
// compose services, the Dockerfile against package.json's Bun and the image's own conventions, and the
// README's settings table against config.ts. The image's build steps themselves run in CI
// (scripts/check-image-build.sh).
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import packageJson from '../../package.json' with { type: 'json' }
import { ROLES } from '../../src/config.ts'

const root = resolve(import.meta.dir, '..', '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')

type Service = {
  image?: string
  build?: string
  environment?: Record<string, string>
  volumes?: string[]
  stop_grace_period?: string
  ports?: string[]
  command?: string[]
}
const compose = Bun.YAML.parse(read('docker-compose.yml')) as { services: Record<string, Service>; volumes: Record<string, unknown> }
const dockerfile = read('Dockerfile')
const caddyfile = read('deploy/Caddyfile')

/** Every environment variable config.ts reads (it is the one reader of the environment). */
const configVariables = new Set(
  [...read('src/config.ts').matchAll(/(?:optional|integerFrom|flagFrom|listFrom|secretFrom|proxyHopsFrom|roleFrom)\('([A-Z0-9_]+)'/g)].map((match) => match[1]!),
)
const appServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined)

function seconds(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration)
  if (!match) throw new Error(`unreadable duration ${duration}`)
  const value = Number(match[1])
  return match[2] === 'ms' ? value / 1000 : match[2] === 'm' ? value * 60 : value
}

describe('docker-compose.yml', () => {
  test('PostgreSQL, Redis, two web instances behind a proxy, one worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'proxy', 'redis', 'web-1', 'web-2', 'worker'])
    const roles = Object.fromEntries(appServices.map(([name, service]) => [name, service.environment?.ZAPDESK_ROLE]))
    expect(roles).toEqual({ 'web-1': 'web', 'web-2': 'web', worker: 'worker' })
    for (const role of Object.values(roles)) expect(ROLES).toContain(role as never)
    // Only the proxy is published; the instances are reached through it.
    expect(appServices.every(([, service]) => service.ports === undefined)).toBe(true)
    expect(compose.services.proxy!.ports).toHaveLength(1)
  })

  test('every variable given to an instance is one the server reads', () => {
    for (const [name, service] of appServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !configVariables.has(variable))
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] })
    }
  })

  test('the instances share the database, Redis, the secrets and DATA_DIR (media, adoptable spools)', () => {
    const shared = ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'MEDIA_URL_SECRET', 'SECRETS_KEY']
    const [first, ...others] = appServices.map(([, service]) => service.environment!)
    for (const environment of others) for (const variable of shared) expect(environment[variable]).toBe(first![variable]!)
    expect(new URL(first!.DATABASE_URL!.replace(/\$\{[^}]+\}/, 'secret')).hostname).toBe('postgres')
    expect(new URL(first!.REDIS_URL!).hostname).toBe('redis')
    const dataVolumes = appServices.map(([, service]) => service.volumes!.find((volume) => volume.endsWith(':/data')))
    expect(new Set(dataVolumes)).toEqual(new Set(['zapdesk-data:/data']))
    expect(Object.keys(compose.volumes)).toContain('zapdesk-data')
    expect(/^ENV[\s\S]*?DATA_DIR=(\S+)/m.exec(dockerfile)![1]).toBe('/data')
  })

  test('the graceful stop fits in the grace period Docker gives before it kills', () => {
    for (const [, service] of appServices) {
      const shutdownSeconds = Number(service.environment!.SHUTDOWN_TIMEOUT_MS) / 1000
      expect(shutdownSeconds).toBeGreaterThan(0)
      expect(shutdownSeconds).toBeLessThan(seconds(service.stop_grace_period ?? '10s'))
    }
  })

  test('every secret the file requires is in the example .env', () => {
    const required = new Set([...read('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1]!))
    const example = read('deploy/compose.env.example')
    for (const variable of required) expect(example).toMatch(new RegExp(`^${variable}=`, 'm'))
  })

  test("the proxy balances over the web instances on the image's port and takes a draining one out", () => {
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/)
    const port = /^ENV[\s\S]*?PORT=(\d+)/m.exec(dockerfile)![1]
    expect(upstreams).toEqual(['web-1', 'web-2'].map((name) => `${name}:${port}`))
    expect(caddyfile).toContain('health_uri /health/ready')
    expect(compose.services.proxy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro')
  })
})

describe('Dockerfile', () => {
  test("Bun's official image at package.json's version, in stages; the build steps are the script's", () => {
    const images = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]!)
    expect(images.length).toBeGreaterThanOrEqual(2)
    for (const image of images) expect(image).toBe(`oven/bun:${packageJson.dependencies.bun}`)
    expect(dockerfile).toMatch(/^RUN bash scripts\/build-image\.sh \/app$/m)
  })

  test('non-root, DATA_DIR a volume, the port exposed, a health check on /health/live, the CLI as entry', () => {
    expect(dockerfile).toMatch(/^USER bun$/m)
    expect(dockerfile).toMatch(/DATA_DIR=\/data/)
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m)
    const port = /^ENV[\s\S]*?PORT=(\d+)/m.exec(dockerfile)![1]
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'))
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/health\/live/m)
    expect(dockerfile).toMatch(/^ENTRYPOINT \["bun", "cli\/index\.ts"\]$/m)
    expect(dockerfile).toMatch(/^CMD \["serve"\]$/m)
    // What the build must not be sent: the symlinked or host-built dependencies, data, version control.
    const ignored = read('.dockerignore').split('\n')
    for (const entry of ['node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(entry)
  })
})

test("the README's settings table names every variable the server reads", () => {
  const readme = read('README.md')
  const missing = [...configVariables].filter((variable) => !readme.includes(`\`${variable}\``))
  expect(missing).toEqual([])
})
