// The HTML shell of a page: the island's stylesheet, its chunks preloaded, the stored theme applied
// before the first paint (no flash of the wrong theme) and the stored language's catalog preloaded.
import { createHash } from 'node:crypto'
import type { IslandAssets, WebManifest } from '../../web/build-manifest.ts'
import { DEFAULT_LANGUAGE } from '../../web/i18n/languages.ts'
import { themeColors } from '../../web/styles/theme-colors.ts'

export type Shell = { html: string; scriptHash: string }

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** Runs in <head> before the stylesheet; the same logic as web/state/theme.ts, kept tiny. */
function headScript(catalogs: WebManifest['catalogs']): string {
  const catalogJson = JSON.stringify(catalogs).replace(/</g, '\\u003c')
  return [
    '(function(){var d=document.documentElement,s=null,l=null;',
    "try{s=localStorage.getItem('preferredTheme');l=localStorage.getItem('language')}catch(e){}",
    "var t=s==='dark'||s==='light'?s:(window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light');",
    `d.dataset.theme=t;d.style.colorScheme=t;var m=document.querySelector('meta[name=theme-color]');if(m)m.content=t==='dark'?'${themeColors.dark}':'${themeColors.light}';`,
    `var c=${catalogJson};if(!Object.prototype.hasOwnProperty.call(c,l))l='${DEFAULT_LANGUAGE}';d.lang=l;`,
    "if(c[l]){var p=document.createElement('link');p.rel='modulepreload';p.href='/assets/'+c[l];document.head.appendChild(p)}})()",
  ].join('')
}

export function renderShell(island: IslandAssets, catalogs: WebManifest['catalogs']): Shell {
  const [entry, ...chunks] = island.js
  const script = headScript(catalogs)
  const html = [
    '<!doctype html>',
    `<html lang="${DEFAULT_LANGUAGE}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="theme-color" content="${themeColors.light}">`,
    '<meta name="color-scheme" content="light dark">',
    '<title>Zapdesk</title>',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    `<script>${script}</script>`,
    ...island.css.map((file) => `<link rel="stylesheet" href="/assets/${escapeAttribute(file)}">`),
    ...chunks.map((file) => `<link rel="modulepreload" href="/assets/${escapeAttribute(file)}">`),
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script type="module" src="/assets/${escapeAttribute(entry ?? '')}"></script>`,
    '</body>',
    '</html>',
  ].join('\n')
  return { html, scriptHash: createHash('sha256').update(script).digest('base64') }
}
