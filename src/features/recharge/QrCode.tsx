import { useMemo } from 'react'
import { encodeQr, qrPath } from './qr.ts'

const QUIET = 4

/** A QR code as one SVG path, dark on white with its quiet zone, sharp at any size. */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const m = useMemo(() => encodeQr(text), [text])
  const box = m.size + QUIET * 2
  return (
    <svg className="qr" width={size} height={size} viewBox={`0 0 ${box} ${box}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid="qr">
      <rect width={box} height={box} fill="#fff" />
      <path d={qrPath(m, QUIET)} fill="#000" />
    </svg>
  )
}
