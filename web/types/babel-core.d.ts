// The few @babel/core types the Lingui macro plugin uses (web/lingui-plugin.ts); the package ships none,
// and this avoids a dependency on @types/babel__core for two functions.
declare module '@babel/core' {
  export type PluginObj = { name?: string; visitor: Record<string, unknown> }
  export type PluginItem = unknown
  export type TransformOptions = {
    filename?: string
    babelrc?: boolean
    configFile?: boolean | string
    parserOpts?: { plugins?: string[] }
    plugins?: PluginItem[]
    sourceMaps?: boolean | 'inline' | 'both'
    retainLines?: boolean
  }
  export function transformAsync(code: string, options?: TransformOptions): Promise<{ code?: string | null } | null>
}
