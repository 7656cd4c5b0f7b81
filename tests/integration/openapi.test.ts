import { describe, expect, test } from 'bun:test'
import { createTestContext } from '../helpers/context.ts'

const context = await createTestContext()

type OpenApiOperation = { summary?: string; responses?: Record<string, unknown>; requestBody?: unknown }
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> }

const document = (await (await context.app.handle(new Request('http://localhost/swagger/json'))).json()) as OpenApiDocument

/** Every API route the app serves, as OpenAPI writes it: /api/users/{id}. */
const apiRoutes = context.app.routes
  .filter((route) => route.path.startsWith('/api/') && route.method !== 'OPTIONS')
  .map((route) => ({ method: route.method.toLowerCase(), path: route.path.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '') || '/' }))

describe('OpenAPI at /swagger/json', () => {
  test('documents every /api route, each with a summary and responses', () => {
    expect(apiRoutes.length).toBeGreaterThan(30)
    const documented = new Map(Object.entries(document.paths).map(([path, operations]) => [path.replace(/\/$/, ''), operations]))
    const missing = apiRoutes.filter((route) => !documented.get(route.path)?.[route.method])
    expect(missing).toEqual([])
    const withoutSummary = apiRoutes.filter((route) => !documented.get(route.path)?.[route.method]?.summary)
    expect(withoutSummary).toEqual([])
  })

  test('request bodies are described (a global parse hook once emptied every one)', () => {
    const login = document.paths['/api/auth/login']?.post?.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined
    expect(Object.keys(login?.content?.['application/json']?.schema?.properties ?? {})).toEqual(expect.arrayContaining(['email', 'password']))
    const withBody = Object.values(document.paths).flatMap((operations) => Object.values(operations)).filter((operation) => operation.requestBody)
    const empty = withBody.filter((operation) => Object.keys((operation.requestBody as { content?: object }).content ?? {}).length === 0)
    expect(withBody.length).toBeGreaterThan(50)
    // Known gap: the three uploads parse their own bodies (to authorise first and cap what they read),
    // and the OpenAPI plugin describes no body for a route with a parse function.
    expect(empty.map((operation) => operation.summary?.split(' (')[0]).sort()).toEqual([
      'Add files to a file list',
      'Add items to a list from a spreadsheet',
      'Import contacts from a spreadsheet',
    ])
  })

  test('the UI is served with local assets, so it works offline', async () => {
    const page = await (await context.app.handle(new Request('http://localhost/swagger'))).text()
    expect(page).toContain('/swagger-assets/swagger-ui-bundle.js')
    expect(page).not.toContain('unpkg.com')
    const bundle = await context.app.handle(new Request('http://localhost/swagger-assets/swagger-ui-bundle.js'))
    expect(bundle.status).toBe(200)
    const traversal = await context.app.handle(new Request('http://localhost/swagger-assets/..%2Fpackage.json'))
    expect(traversal.status).toBe(404)
  })
})
