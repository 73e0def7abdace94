import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { App } from './types.ts'

/** Files that must be revalidated on every load so a deploy reaches users (DESIGN §6). */
const NEVER_CACHED = new Set(['index.html', 'sw.js', 'manifest.webmanifest'])

export async function serveApp(app: App, distDir: string): Promise<boolean> {
  const index = path.join(distDir, 'index.html')
  if (!fs.existsSync(index)) return false
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    preCompressed: true,
    // Cache headers are ours alone: immutable for hashed assets, revalidate for the shell.
    cacheControl: false,
    setHeaders(res, file) {
      // A precompressed twin (index.html.br) is cached like the file it stands for.
      const rel = path.relative(distDir, file).replace(/\.(br|gz)$/, '')
      if (rel.startsWith(`assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable')
      else if (NEVER_CACHED.has(path.basename(rel))) res.setHeader('cache-control', 'no-cache')
      else res.setHeader('cache-control', 'public, max-age=3600')
    },
  })
  return true
}
