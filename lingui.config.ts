// Lingui catalogs of the web app. Message ids are generated from the English source text; the spec's
// fallback is pt, so a message missing in en or es compiles to its Portuguese translation.
import { defineConfig } from '@lingui/conf'

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'pt', 'es'],
  fallbackLocales: { default: 'pt' },
  catalogs: [
    {
      path: '<rootDir>/web/i18n/locales/{locale}/messages',
      include: ['<rootDir>/web'],
      exclude: ['**/node_modules/**', '<rootDir>/web/i18n/locales/**'],
    },
  ],
  compileNamespace: 'ts',
  orderBy: 'message',
})
