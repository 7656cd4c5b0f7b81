// Shown while a private page restores its session (a refresh round trip).
import { useLingui } from '@lingui/react/macro'
import { LogoMark } from './logo.tsx'

export function PageLoading() {
  const { t } = useLingui()
  return (
    <div className="page-loading" role="status">
      <LogoMark size={56} />
      <span>{t`Loading…`}</span>
    </div>
  )
}
