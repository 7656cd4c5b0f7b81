// Bun's bundler has no Babel, and Lingui's macros (t`...`, <Trans>) must be compiled away before
// bundling: left alone, the build succeeds and the page is blank at run time. This plugin runs ONLY
// the Lingui macro through Babel, on the files that import a macro, and hands the result back to Bun.
import { transformAsync } from '@babel/core'
import { makeConfig } from '@lingui/conf'
import linguiMacro from '@lingui/babel-plugin-lingui-macro'
import type { BunPlugin } from 'bun'
import linguiConfig from '../lingui.config.ts'

const macroImport = /from\s+['"]@lingui\/(core|react)\/macro['"]/
/** TypeScript files of the web app only (this folder): never node_modules, never the server. */
const webSources = new RegExp(`^${import.meta.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\\\/].*\\.tsx?$`)

export function linguiMacroPlugin(options: { descriptorFields?: 'id-only' | 'message' | 'all' } = {}): BunPlugin {
  // The config object is handed over as is: the macro would otherwise look for and load the config file itself.
  const config = makeConfig(linguiConfig, { skipValidation: true })
  return {
    name: 'lingui-macro',
    setup(build) {
      build.onLoad({ filter: webSources }, async (args) => {
        const source = await Bun.file(args.path).text()
        const loader = args.path.endsWith('.tsx') ? 'tsx' : 'ts'
        if (!macroImport.test(source)) return { contents: source, loader }
        const result = await transformAsync(source, {
          filename: args.path,
          babelrc: false,
          configFile: false,
          // Only the macro: TypeScript and JSX stay for Bun, which strips and compiles them itself.
          parserOpts: { plugins: loader === 'tsx' ? ['typescript', 'jsx'] : ['typescript'] },
          plugins: [[linguiMacro, { linguiConfig: config, descriptorFields: options.descriptorFields ?? 'id-only' }]],
          sourceMaps: 'inline',
          retainLines: true,
        })
        if (!result?.code) throw new Error(`lingui macro produced no code for ${args.path}`)
        return { contents: result.code, loader }
      })
    },
  }
}
