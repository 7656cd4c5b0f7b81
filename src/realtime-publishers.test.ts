// One event path (docs/architecture.md): a service emits a domain event, and only a module's realtime
// listener (src/modules/<module>/realtime.ts or *-realtime.ts) turns it into frames. A frame published
// from anywhere else (a service, a channel adapter, a job) is a second path, and fails here.
import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
const publishing = /\b(?:realtime\.publish|publishPlatform)\s*\(/

/** Where frames may be published: the listeners, and core's realtime plumbing that defines publishing. */
export function mayPublishFrames(file: string): boolean {
  return /^src\/modules\/[^/]+\/(?:[\w-]+-)?realtime\.ts$/.test(file) || file.startsWith('src/core/realtime/')
}

export function framePublishers(files: { path: string; source: string }[]): string[] {
  return files.filter(({ path, source }) => !mayPublishFrames(path) && publishing.test(source.replace(/^\s*(\/\/|\*).*$/gm, ''))).map(({ path }) => path)
}

test('only realtime listeners publish frames', async () => {
  const files: { path: string; source: string }[] = []
  for (const folder of ['src', 'jobs', 'cli']) {
    for await (const file of new Glob('**/*.ts').scan({ cwd: join(root, folder) })) {
      if (file.endsWith('.test.ts')) continue
      const path = `${folder}/${file}`
      files.push({ path, source: await Bun.file(join(root, path)).text() })
    }
  }
  expect(files.length).toBeGreaterThan(100)
  expect(framePublishers(files)).toEqual([])
})

test('the rule would catch a service, a channel or a job that publishes', () => {
  const frame = "deps.realtime.publish({ companyId, channel: 'tag', data, audience: { kind: 'company' } })"
  expect(
    framePublishers([
      { path: 'src/modules/tags/service.ts', source: frame },
      { path: 'src/channels/inbound/pipeline.ts', source: frame },
      { path: 'jobs/ticket-timers.ts', source: "publishPlatform(deps, { channel: 'plans', data, audience })" },
      { path: 'src/modules/tags/realtime.ts', source: frame },
      { path: 'src/modules/whatsapp/session-realtime.ts', source: frame },
      { path: 'src/modules/tags/queries.ts', source: `// ${frame}` },
    ]),
  ).toEqual(['src/modules/tags/service.ts', 'src/channels/inbound/pipeline.ts', 'jobs/ticket-timers.ts'])
})
