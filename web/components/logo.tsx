// The Zapdesk mark: a speech bubble with a spark. The name is a brand and is not translated.

export function LogoMark({ size = 40 }: { size?: number }) {
  return (
    <svg viewBox="0 0 48 48" width={size} height={size} aria-hidden="true" focusable="false" className="logo-mark">
      <path d="M24 4C12.4 4 3 12.3 3 22.6c0 5.4 2.6 10.3 6.8 13.7L8 44l8.7-4.6c2.3.7 4.7 1 7.3 1 11.6 0 21-8.3 21-18.6S35.6 4 24 4z" fill="var(--brand)" />
      <path d="M26.5 11L16 25h7l-2 12 11-15h-7.2l1.7-11z" fill="var(--brand-contrast)" />
    </svg>
  )
}

export function Logo({ size = 40 }: { size?: number }) {
  return (
    <span className="logo">
      <LogoMark size={size} />
      <span className="logo-name">Zapdesk</span>
    </span>
  )
}
