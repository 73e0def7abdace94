import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { SEED_BANNERS } from '../../../server/db/seed/content.ts'

/**
 * A home banner is the home screen's largest paint: on the bench's phone link (Slow 4G, 1.6 Mbps ≈ 200
 * KB/s) this many bytes as sent take about 50 ms. The demo banners are vector art: one SVG serves every
 * screen width and density, and is smaller compressed than a WebP of the 720 px a phone draws it at
 * (~7 KB for these).
 */
const BANNER_BUDGET_BYTES = 10 * 1024
const PUBLIC = path.resolve(import.meta.dirname, '../../../public')

/** The file a banner image path names, as the server sends it from public/ (copied to dist/). */
const fileOf = (image: string) => path.join(PUBLIC, image)

describe('home banners stay small and keep their box', () => {
  it.each(SEED_BANNERS.map((b) => [b.image]))('%s is within the byte budget as sent (brotli, as the build precompresses it)', (image) => {
    const raw = fs.readFileSync(fileOf(image))
    const sent = /\.svg$/.test(image) ? zlib.brotliCompressSync(raw).length : raw.length
    expect(sent).toBeLessThanOrEqual(BANNER_BUDGET_BYTES)
  })

  it.each(SEED_BANNERS.map((b) => [b.image]))('%s is drawn at 5:2, the box the carousel reserves (750×300), so nothing moves when it loads', (image) => {
    const svg = fs.readFileSync(fileOf(image), 'utf8')
    const box = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(svg)
    expect(box, 'an SVG banner declares its viewBox').not.toBeNull()
    expect(Number(box![1]) / Number(box![2])).toBeCloseTo(750 / 300, 3)
  })
})
