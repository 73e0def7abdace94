// Renders the PWA icons in public/icons/ from public/favicon.svg (the gold N in a hexagon on #0b0f1a)
// with Chromium screenshots. Run once after changing the favicon: `npx tsx scripts/make-icons.ts`.
//
// - icon-{192,512}.png (purpose "any"): the favicon as it is, on the theme colour.
// - maskable-{192,512}.png and apple-touch-icon-180.png: a full-bleed theme background with the mark
//   scaled into the safe zone (the circle of radius 40% in the middle, which every mask keeps); the
//   script checks that nothing but background lies outside it.

import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const OUT = path.join(ROOT, 'public', 'icons')
const BG = '#0b0f1a'
/** How much of its 64-unit box the mark may use in a maskable icon: its farthest point (the hexagon's
 *  corners plus half the stroke, 27 units from the centre) lands at 0.8 × 27 / 64 ≈ 34% < 40%. */
const MASKABLE_SCALE = 0.8

type Kind = 'any' | 'maskable'
const ICONS: { file: string; size: number; kind: Kind }[] = [
  { file: 'icon-192.png', size: 192, kind: 'any' },
  { file: 'icon-512.png', size: 512, kind: 'any' },
  { file: 'maskable-192.png', size: 192, kind: 'maskable' },
  { file: 'maskable-512.png', size: 512, kind: 'maskable' },
  { file: 'apple-touch-icon-180.png', size: 180, kind: 'maskable' },
]

const favicon = fs.readFileSync(path.join(ROOT, 'public', 'favicon.svg'), 'utf8')
const viewBox = /viewBox="0 0 64 64"/.test(favicon) ? '0 0 64 64' : null
if (!viewBox) throw new Error('favicon.svg is expected to have viewBox="0 0 64 64"')
/** The mark alone: everything inside <svg> but the background <rect>. */
const mark = favicon
  .replace(/^[\s\S]*?<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '')
  .replace(/<rect\b[^>]*\/>/, '')

function svgFor(kind: Kind, size: number): string {
  if (kind === 'any') return favicon.replace('<svg ', `<svg width="${size}" height="${size}" `)
  const s = MASKABLE_SCALE
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${viewBox}">
<rect width="64" height="64" fill="${BG}"/>
<g transform="translate(32 32) scale(${s}) translate(-32 -32)">${mark}</g>
</svg>`
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] })
try {
  fs.mkdirSync(OUT, { recursive: true })
  for (const icon of ICONS) {
    const context = await browser.newContext({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 })
    const page = await context.newPage()
    await page.setContent(`<!doctype html><html><body style="margin:0;background:${BG}">${svgFor(icon.kind, icon.size)}</body></html>`)
    const png = await page.screenshot({ type: 'png', omitBackground: false })
    fs.writeFileSync(path.join(OUT, icon.file), png)

    // Read the PNG back: its size, and for a maskable icon only background outside the safe zone.
    const check = await page.evaluate(
      async ({ src, size, maskable, bg }) => {
        const img = new Image()
        img.src = src
        await img.decode()
        const canvas = document.createElement('canvas')
        canvas.width = img.naturalWidth
        canvas.height = img.naturalHeight
        const g = canvas.getContext('2d')!
        g.drawImage(img, 0, 0)
        const px = g.getImageData(0, 0, canvas.width, canvas.height).data
        const [r0, g0, b0] = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16))
        let outside = 0
        if (maskable) {
          const c = size / 2
          const r = size * 0.4
          for (let y = 0; y < size; y++)
            for (let x = 0; x < size; x++) {
              if ((x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2 <= r * r) continue
              const i = (y * size + x) * 4
              if (Math.abs(px[i]! - r0!) + Math.abs(px[i + 1]! - g0!) + Math.abs(px[i + 2]! - b0!) > 6 || px[i + 3] !== 255) outside++
            }
        }
        return { width: img.naturalWidth, height: img.naturalHeight, outside }
      },
      { src: `data:image/png;base64,${png.toString('base64')}`, size: icon.size, maskable: icon.kind === 'maskable', bg: BG },
    )
    if (check.width !== icon.size || check.height !== icon.size) throw new Error(`${icon.file} is ${check.width}×${check.height}`)
    if (check.outside) throw new Error(`${icon.file}: ${check.outside} pixels of the mark lie outside the maskable safe zone`)
    console.log(`public/icons/${icon.file}  ${icon.size}×${icon.size}  ${png.length} bytes`)
    await context.close()
  }
} finally {
  await browser.close()
}
