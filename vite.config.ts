import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { defineConfig, type Plugin, type Rolldown } from 'vite'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'
import { BUILT_KEY_FILE, envelopeKeyFile, readEnvelopeKey } from './server/envelopeKey.ts'
import { localePart, unlistedFirstLoadKeys, type LocaleSplit } from './src/i18n/parts.ts'
import { SEED_BANNERS } from './server/db/seed/content.ts'
import { LANG_TAG } from './contract/constants.ts'
import { BUNDLE_PACKAGES_FILE, packageWeights } from './scripts/bundle-packages.mjs'
import { bootLoader } from './scripts/boot-loader.mjs'

/**
 * Writes .br and .gz beside every text asset so the server sends them precompressed: on a 1.6 Mbps
 * phone link the first load is a third of its raw size. Runs last, after vite-plugin-pwa has built
 * dist/sw.js, so the worker is compressed too and the precache list (made before) never sees a twin.
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'nadi-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir)
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        if (!fs.existsSync(path.join(outDir, 'sw.js'))) throw new Error('precompress ran before the service worker was built')
        const walk = (dir: string): string[] =>
          fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
        for (const file of walk(outDir)) {
          if (!/\.(js|mjs|css|html|json|svg|webmanifest|txt)$/.test(file)) continue
          const raw = fs.readFileSync(file)
          if (raw.length < 1024) continue
          fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }))
          fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
        }
      },
    },
  }
}

/** The chunks reached from the entries through the imports `next` names for each. */
function reachableChunks(bundle: Rolldown.OutputBundle, next: (chunk: Rolldown.OutputChunk, chunks: Map<string, Rolldown.OutputChunk>) => string[]): Rolldown.OutputChunk[] {
  const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])))
  const seen = new Map<string, Rolldown.OutputChunk>()
  const todo = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName)
  while (todo.length) {
    const chunk = chunks.get(todo.pop() as string)
    if (!chunk || seen.has(chunk.fileName)) continue
    seen.set(chunk.fileName, chunk)
    todo.push(...next(chunk, chunks))
  }
  return [...seen.values()]
}

const LOCALE_SPLIT = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'src/i18n/lazy-namespaces.json'), 'utf8')) as LocaleSplit
const LOCALE_PART = /[\\/]locales[\\/](\w+)\.json\?part=(core|rest)$/

/**
 * Each language in two chunks (src/i18n/index.ts imports `locales/<file>.json?part=core|rest`): the
 * shell's strings, in the first load, and the strings of namespaces only lazy screens use
 * (src/i18n/lazy-namespaces.json), fetched right after start; of a namespace the first load needs
 * only a few keys of (its firstLoadKeys), the others come second too, and the build fails if first-load
 * code names one of those (src/i18n/parts.ts). locales/*.json stay whole, one file a
 * language for translators and tests; without this plugin (vitest) both parts are the whole file.
 */
function localeSplit(): Plugin {
  let unlisted: string[] = []
  return {
    name: 'nadi-locale-split',
    enforce: 'pre',
    load(id) {
      const m = LOCALE_PART.exec(id)
      if (!m) return null
      const file = id.slice(0, id.indexOf('?'))
      this.addWatchFile(file)
      const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
      const part = localePart(all, LOCALE_SPLIT, m[2] as 'core' | 'rest')
      // A module, not JSON text: with its query the id is not a .json file to the bundler. JSON.parse
      // of a string literal is also quicker to start than an object literal this size.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(part))})`
    },
    generateBundle(_options, bundle) {
      // The first load: the entry and what it imports statically.
      const first = reachableChunks(bundle, (c) => c.imports)
      unlisted = first.flatMap((c) => unlistedFirstLoadKeys(c.code, LOCALE_SPLIT).map((k) => `${c.fileName}: ${k}`))
    },
    // Failed here, after writing, not in generateBundle: a build stopped there loses its message to the
    // worker's plugin, which still runs and fails on the index.html never written.
    writeBundle() {
      if (unlisted.length) this.error(`first-load code names strings left out of the first locale part (add them to firstLoadKeys in src/i18n/lazy-namespaces.json):\n  ${unlisted.join('\n  ')}`)
    },
  }
}

/**
 * Only the user's language is in the first load, but its chunk is found only after the main script
 * runs. A tiny inline script in <head> reads the stored language and preloads that chunk at once,
 * saving a round trip on every cold start. It also gives the page that language's tag, as the app
 * will (src/i18n setLang): what index.html draws before the app (home's top, the offline snapshot) is
 * laid out in the language's own faces (styles.css :lang), not in Traditional Chinese's and again.
 */
function preloadLocale(): Plugin {
  return {
    name: 'nadi-preload-locale',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const map: Record<string, string> = {}
        for (const chunk of Object.values(ctx.bundle ?? {})) {
          const m = chunk.type === 'chunk' && chunk.facadeModuleId ? LOCALE_PART.exec(chunk.facadeModuleId) : null
          if (m?.[1] && m[2] === 'core') map[m[1].toUpperCase()] = `/${chunk.fileName}`
        }
        if (!map.TW) throw new Error('locale chunks not found: the preload script would preload nothing')
        const script = `(function(){try{var m=${JSON.stringify(map)};var c=localStorage.getItem('lang'),t=${JSON.stringify(LANG_TAG)};if(t.hasOwnProperty(c))document.documentElement.lang=t[c];var f=m[c]||m.TW;var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f;document.head.appendChild(l)}catch(e){}})()`
        return { html, tags: [{ tag: 'script', children: script, injectTo: 'head-prepend' }] }
      },
    },
  }
}

/**
 * The app's code starts after the first paint, not before it (issue 21, LCP warm): its entry scripts
 * become modulepreloads — fetched and compiled as early as before — and scripts/boot-loader.mjs's
 * inline script at the end of <body> imports them once the home top index.html draws is painted. A
 * module entry runs when the parser is done, which on a warm start came before the first frame: its
 * evaluation held the banner's paint back by its own length.
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'nadi-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const scripts = /<script type="module" crossorigin src="([^"]+)"><\/script>/g
        // The module scripts Vite wrote, in its order: the bundler's runtime, then the entry.
        const named = [...html.matchAll(scripts)].map((m) => m[1])
        if (!named.some((f) => /\/shell-[\w-]+\.js$/.test(f ?? ''))) throw new Error(`index.html does not load the shell as a module script: ${named.join(', ')}`)
        const loader = bootLoader(named.filter((f): f is string => f !== undefined))
        return {
          html: html.replace(scripts, '<link rel="modulepreload" crossorigin href="$1">'),
          tags: [{ tag: 'script', children: loader, injectTo: 'body' }],
        }
      },
    },
  }
}

/** The preload script's map of language → locale chunk, read back from the built index.html. */
function localeMap(html: string): Record<string, string> {
  const m = /var m=(\{[^}]*\})/.exec(html)
  if (!m?.[1]) throw new Error('index.html has no locale preload map')
  return JSON.parse(m[1]) as Record<string, string>
}

/**
 * The app shell, as the built index.html names it: the page itself, its entry script, modulepreloads,
 * stylesheet, icons and manifest, plus the default (tw) locale its inline script preloads. Nothing
 * else is precached: screens, other locales and the wallet code are cached by the worker on first use.
 */
function shellFiles(html: string): Set<string> {
  const files = new Set(['index.html'])
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="\/([^"/][^"]*)"/g)) if (m[1]) files.add(m[1])
  const tw = localeMap(html).TW
  if (!tw) throw new Error('no tw locale in the preload map')
  files.add(tw.replace(/^\//, ''))
  return files
}

/**
 * The code a screen may need offline, as the chunk graph says after the build: every chunk reachable
 * from the entry through static and dynamic imports, with its CSS, except other languages (fetched on
 * a switch) and the wallet's code (connecting and paying need the network anyway). Left out of the
 * precache (DESIGN §6: the shell only), it is marked `lazy` in the worker's manifest, and the worker
 * fetches it into its runtime cache once the app is up and idle (sw/sw.ts, src/app/sw.ts).
 */
function lazyCode(): Plugin & { files: Set<string> } {
  const files = new Set<string>()
  const skipped = (id: string | null) => !id || LOCALE_PART.test(id) || /[\\/]src[\\/]wallet[\\/]|[\\/]node_modules[\\/]/.test(id)
  return {
    name: 'nadi-lazy-code',
    apply: 'build',
    files,
    generateBundle(_options, bundle) {
      files.clear()
      const reached = reachableChunks(bundle, (c, chunks) => [...c.imports, ...c.dynamicImports.filter((f) => !skipped(chunks.get(f)?.facadeModuleId ?? null))])
      for (const chunk of reached) {
        files.add(chunk.fileName)
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css)
      }
    },
  }
}
const lazy = lazyCode()

/**
 * Each chunk's weight by npm package (scripts/bundle-packages.mjs), written beside the app as
 * dist/.bundle-packages: the budget check and the README's first-load table say from it what every
 * package costs the first load. Only the module graph knows which package a byte came from.
 */
function bundlePackages(): Plugin {
  return {
    name: 'nadi-bundle-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.fromEntries(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, packageWeights(c.modules, import.meta.dirname)]] : [])))
      this.emitFile({ type: 'asset', fileName: BUNDLE_PACKAGES_FILE, source: `${JSON.stringify({ chunks })}\n` })
    },
  }
}

/**
 * The envelope's server key (docs/envelope.md), built into the app so a man in the middle cannot swap
 * it: read from the key file the server signs with (made on first build outside production), and
 * written beside the app so a server started with another key refuses to serve this build.
 */
function envelopeKey(): Plugin & { publicKey: string } {
  const env = process.env
  const dataDir = path.resolve(import.meta.dirname, env.NADI_DATA_DIR || 'data')
  // A build machine needs only the public half (NADI_ENVELOPE_PUBLIC_KEY, printed by
  // scripts/envelope-key.ts): the private key stays with the servers.
  const given = env.NADI_ENVELOPE_PUBLIC_KEY?.trim()
  if (given !== undefined && !/^B[A-Za-z0-9_-]{86}$/.test(given)) throw new Error('NADI_ENVELOPE_PUBLIC_KEY must be the base64url P-256 point scripts/envelope-key.ts prints')
  const publicKey = given ?? readEnvelopeKey(envelopeKeyFile(env, dataDir), { create: env.NADI_ENV !== 'production' }).publicKey
  return {
    name: 'nadi-envelope-key',
    apply: 'build',
    publicKey,
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BUILT_KEY_FILE, source: `${publicKey}\n` })
    },
  }
}
const serverKey = envelopeKey()

const THEME = '#0b0f1a'
const OUT_DIR = 'dist'
const TARGET = 'es2022'

/**
 * The floor (NADI_BUILD=floor, issue 21): the least this stack can ship — React, react-dom and wouter
 * drawing one line and the demo's first banner, with a worker precaching it — built by this file's
 * own plugins and target into bench/out/floor (gitignored), so the bench can tell our cost from the stack's.
 */
function floorConfig() {
  const banner = SEED_BANNERS[0]
  if (!banner) throw new Error('the demo seeds no banner: the floor has no image to show')
  const root = path.resolve(import.meta.dirname, 'bench/floor')
  return defineConfig({
    root,
    publicDir: path.resolve(import.meta.dirname, 'public'),
    define: { __FLOOR_BANNER__: JSON.stringify({ image: banner.image, title: banner.title.tw }) },
    plugins: [
      react(),
      precompress(),
      bundlePackages(),
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'sw',
        filename: 'sw.ts',
        injectRegister: false,
        integration: { closeBundleOrder: 'pre' },
        manifest: false,
        injectManifest: {
          rollupFormat: 'iife',
          // The shell and the banner it shows: the offline start's content is the floor's whole page.
          globPatterns: ['**/*.{js,css,html}', banner.image.replace(/^\//, '')],
          globIgnores: ['**/*.br', '**/*.gz', 'sw.js'],
        },
      }),
    ],
    build: { outDir: path.resolve(import.meta.dirname, 'bench/out/floor'), emptyOutDir: true, target: TARGET, sourcemap: false },
  })
}

export default process.env.NADI_BUILD === 'floor' ? floorConfig() : defineConfig({
  define: { __NADI_SERVER_KEY__: JSON.stringify(serverKey.publicKey) },
  resolve: {
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: path.resolve(import.meta.dirname, 'src/lib/useSyncExternalStore.ts') }],
  },
  plugins: [
    serverKey,
    react(),
    localeSplit(),
    precompress(),
    preloadLocale(),
    startAfterFirstPaint(),
    lazy,
    bundlePackages(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // src/app/sw.ts registers it with workbox-window, after the page has loaded.
      injectRegister: false,
      // The worker before the precompress plugin, which compresses it too.
      integration: { closeBundleOrder: 'pre' },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/index',
        name: 'NADI',
        short_name: 'NADI',
        description: 'DePIN mining, savings, shopping and NADI/USDT trading in one wallet-first app.',
        lang: 'en',
        start_url: '/index',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME,
        background_color: THEME,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      injectManifest: {
        // A classic script: module service workers are not everywhere yet.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html}'],
        globIgnores: ['**/*.br', '**/*.gz', 'sw.js'],
        manifestTransforms: [
          async (entries) => {
            const html = fs.readFileSync(path.resolve(import.meta.dirname, OUT_DIR, 'index.html'), 'utf8')
            const shell = shellFiles(html)
            // The default language's second part too: lazy screens wait for it, and offline they must find it.
            const precached = entries.filter((e) => shell.has(e.url) || /^assets\/locale-tw-rest-/.test(e.url))
            const missing = [...shell].filter((f) => /\.(js|css|html)$/.test(f) && !precached.some((e) => e.url === f))
            if (missing.length) throw new Error(`app shell files missing from the precache: ${missing.join(', ')}`)
            // Marked, not precached: sw/sw.ts fetches these into its runtime cache when the app is idle.
            const later = entries.filter((e) => lazy.files.has(e.url) && !precached.includes(e)).map((e) => ({ ...e, lazy: true }))
            if (!later.some((e) => /TradeScreen/.test(e.url))) throw new Error('no lazy screen found in the chunk graph: offline screens would stay blank')
            return { manifest: [...precached, ...later] }
          },
        ],
      },
    }),
  ],
  build: {
    outDir: OUT_DIR,
    target: TARGET,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // No list of every lazy chunk's imports in the first load (2.6 KB gzip of file names): a screen's
    // imports are fetched when its chunk is read, from the worker's cache once it has fetched every
    // screen's code ahead (src/app/sw.ts), which it does as soon as the first screen is idle.
    modulePreload: false,
    rollupOptions: {
      output: {
        // locale-<file>-<part>: the precache (manifestTransforms) finds the default language's second part by name.
        chunkFileNames: (chunk) => {
          const m = chunk.facadeModuleId ? LOCALE_PART.exec(chunk.facadeModuleId) : null
          return m ? `assets/locale-${m[1]}-${m[2]}-[hash].js` : 'assets/[name]-[hash].js'
        },
        // Everything the entry imports statically in one chunk. Left to itself the bundler cut it into some
        // thirty shared chunks (each module a lazy screen also uses apart from the rest), each compressed
        // alone on the wire: 12 KB gzip more for the same code, and more requests before the first paint.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/ws': { target: 'ws://localhost:8080', ws: true },
    },
  },
})
