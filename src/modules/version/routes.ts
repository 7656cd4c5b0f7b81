import { Elysia, t } from 'elysia'
import packageJson from '../../../package.json' with { type: 'json' }

export const versionRoutes = () =>
  new Elysia({ tags: ['General'] }).get('/version', () => ({ version: packageJson.version }), {
    response: t.Object({ version: t.String() }),
    detail: { summary: 'The product version shown in the drawer' },
  })
