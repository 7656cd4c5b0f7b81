// The QR code picture. qrcode.react is fetched only when a QR dialog opens (a chunk of its own), not
// with the page: most visits to the connections page never show a QR code.
import { lazy, Suspense } from 'react'

const loadLibrary = () => import('qrcode.react')
const QRCodeSVG = lazy(() => loadLibrary().then((library) => ({ default: library.QRCodeSVG })))

/** Starts the download as the dialog opens, so the picture is ready when the code arrives. */
export function preloadQrLibrary(): void {
  void loadLibrary().catch(() => undefined)
}

export function QrCode({ value, label, loadingText }: { value: string; label: string; loadingText: string }) {
  return (
    <Suspense
      fallback={
        <div className="connection-qr-placeholder" role="status">
          {loadingText}
        </div>
      }
    >
      {/* Dark on white in both themes: phone cameras read a light-on-dark code badly. */}
      <QRCodeSVG value={value} size={256} marginSize={2} bgColor="#ffffff" fgColor="#000000" title={label} role="img" aria-label={label} className="connection-qr-image" />
    </Suspense>
  )
}
