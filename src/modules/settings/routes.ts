import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { Setting, SettingKeyParams, UpdateSettingBody } from './model.ts'
import { listSettings, updateSetting } from './service.ts'

export const settingRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/settings', tags: ['Settings'] })
    .use(tenant(deps))
    .get('/', ({ caller }) => listSettings(deps, caller), {
      auth: true,
      response: t.Array(Setting),
      detail: { summary: "The company's settings as key and value (the payment token only for admins)" },
    })
    .put('/:key', ({ caller, params, body }) => updateSetting(deps, caller, params.key, body.value), {
      auth: 'admin',
      params: SettingKeyParams,
      body: UpdateSettingBody,
      response: Setting,
      detail: { summary: 'Change one setting (admins); the value must be one the key accepts' },
    })
