import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { BANNER_PRELOAD_ATTR } from '../../contract/constants.ts'

/**
 * The home screen's shell, with the current first home banner named in its <head>: the browser's
 * preload scanner starts the banner (the home screen's largest paint) with the HTML, not after the
 * app's code has run and asked for the banner list. The app reads the same tag to draw the banner
 * before that list arrives (src/features/home/bannerHint.ts).
 */


/** Paths the app opens on its home screen (the router sends / to /index). */
export const HOME_PATHS: ReadonlySet<string> = new Set(['/', '/index'])

/** Only this origin's images: the shell's CSP (img-src 'self') would refuse any other, and the tag must not carry markup. */
export function isPreloadableImage(image: string): boolean {
  return /^\/(?!\/)[A-Za-z0-9._~\-/%]+$/.test(image) && !image.includes('..')
}

/** The preload tag of a banner image, or '' when the image cannot be preloaded. */
export function bannerPreloadTag(image: string | null | undefined): string {
  if (!image || !isPreloadableImage(image)) return ''
  return `<link rel="preload" as="image" href="${image}" fetchpriority="high" ${BANNER_PRELOAD_ATTR}>`
}

/** The shell with `tag` first in its <head>, before the inline scripts that read it. */
export function withHeadTag(html: string, tag: string): string {
  if (!tag) return html
  const m = /<head[^>]*>/i.exec(html)
  if (!m) return html
  const at = m.index + m[0].length
  return html.slice(0, at) + tag + html.slice(at)
}

export interface ShellBody {
  html: string
  etag: string
  br: Buffer
  gzip: Buffer
}

/**
 * The home shell for each first banner, compressed once per banner rather than once per request: the
 * banner changes when an operator changes it, while the shell is asked for on every cold start.
 */
export function homeShells(indexHtml: string): (image: string | null | undefined) => ShellBody {
  let last: { image: string; body: ShellBody } | undefined
  return (image) => {
    const key = image ?? ''
    if (last?.image === key) return last.body
    const html = withHeadTag(indexHtml, bannerPreloadTag(image))
    const body: ShellBody = {
      html,
      etag: `"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
      br: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: zlib.gzipSync(html, { level: 9 }),
    }
    last = { image: key, body }
    return body
  }
}

/** Which encoding of the shell to send for an Accept-Encoding header; one it weighs q=0 it refuses. */
export function shellEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>()
  for (const item of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = item.split(';').map((s) => s.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    if (name && !(q !== undefined && Number(q.slice(2)) === 0)) accepted.add(name)
  }
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null
}
