import type { BrowserContext } from 'playwright-core'

/** Debian's Chromium and the only switches it is started with, in tests and benchmarks alike. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const

/**
 * What a document loaded in airplane mode reads from navigator.onLine, as an init script: false until
 * `window.__nadiBackOnline()` is called. Chromium 150's offline emulation (context.setOffline, or CDP's
 * Network.emulateNetworkConditions) cuts the network and reaches documents already open, but a
 * document the service worker serves into a new frame (RenderDocument) reads navigator.onLine ===
 * true. A phone in airplane mode reads false there, and the shell decides on it (index.html draws
 * home's snapshot only offline), so tests and benchmarks that start the app offline add this to the
 * context while it is offline (`airplaneMode`).
 */
const OFFLINE_DOCUMENT_SCRIPT = `(() => {
  const native = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')
  if (!native || !native.get) return
  let offline = true
  Object.defineProperty(window, '__nadiBackOnline', { value: () => { offline = false } })
  Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, enumerable: true, get() { return offline ? false : native.get.call(this) } })
})()`

/**
 * Airplane mode for a Playwright context: the network cut, and every document loaded from now on
 * reading navigator.onLine === false. Answers the way back: the network returns and later documents
 * read the platform's value again (pages open meanwhile are told by their own `__nadiBackOnline`).
 */
export async function airplaneMode(context: BrowserContext): Promise<() => Promise<void>> {
  await context.setOffline(true)
  const script = await context.addInitScript({ content: OFFLINE_DOCUMENT_SCRIPT })
  return async () => {
    await script.dispose()
    await context.setOffline(false)
  }
}
