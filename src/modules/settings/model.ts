import { t } from 'elysia'

export const Setting = t.Object({ key: t.String(), value: t.String() })
export type Setting = typeof Setting.static

export const SettingKeyParams = t.Object({ key: t.String({ minLength: 1, maxLength: 100, error: 'key is required' }) })

export const UpdateSettingBody = t.Object({
  value: t.String({ maxLength: 2000, error: 'value is required, at most 2000 characters' }),
})
