// The browser UI colour per theme (meta theme-color), shared by the HTML shell (before paint) and the toggle.
export type Theme = 'light' | 'dark'

export const themeColors: Record<Theme, string> = { light: '#0b6e4f', dark: '#1f2c34' }
