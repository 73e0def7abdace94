// What the first load of /index costs in JavaScript: the entry script, its modulepreloads, and the
// default language's first part (its shell strings, vite.config.ts localeSplit) fetched before the first render. Shared by the CI budget check and the bench.
// `locale` null: a build without locale chunks (the bench's floor, bench/floor), counted the same way otherwise.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

export function firstLoad(dist = 'dist', locale = 'tw') {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
  const files = new Set()
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) files.add(m[1])
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) files.add(m[1])
  if (locale !== null) {
    const localeChunk = fs.readdirSync(path.join(dist, 'assets')).find((f) => new RegExp(`^locale-${locale}-core-[\\w-]+\\.js$`).test(f))
    if (!localeChunk) throw new Error(`no first part of the ${locale} locale in ${dist}/assets`)
    files.add(`/assets/${localeChunk}`)
  }
  let raw = 0
  let gzip = 0
  const parts = []
  for (const f of files) {
    const buf = fs.readFileSync(path.join(dist, f.replace(/^\//, '')))
    const gz = zlib.gzipSync(buf, { level: 9 }).length
    raw += buf.length
    gzip += gz
    parts.push({ file: f, raw: buf.length, gzip: gz })
  }
  return { raw, gzip, parts: parts.sort((a, b) => b.gzip - a.gzip) }
}
