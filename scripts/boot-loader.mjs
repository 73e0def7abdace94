// The inline script that starts the app's code after the first paint (issue 21, LCP warm), written
// into the built index.html by vite.config.ts (startAfterFirstPaint). Its text is produced here, apart
// from the config, so the unit tests can run it against a page of their own.

/** How long the start waits, at most, for the home top's banner to load. */
export const BANNER_WAIT_MS = 400
/** However the page fares (frames withheld, a tab hidden later), the app starts by then. */
export const START_WAIT_MS = 1000

/**
 * The script: once the home top index.html drew is painted (its banner loaded, or BANNER_WAIT_MS
 * gone, then a frame), it imports `modules` — the entry scripts Vite wrote, now modulepreloads, so
 * their fetch and compile were never held back. A hidden page paints no frame and starts at once; so
 * does an offline one, whose first screen is the saved content only the app can draw — unless index.html
 * drew the home screen's snapshot (src/features/home/snapshot.ts): then the app starts once that is
 * painted, not waiting for its banner. A page the HTML drew nothing on (another route, or home before
 * any banner was shown) has nothing to paint first, and starts at once too. It starts once.
 */
export function bootLoader(modules, { bannerWaitMs = BANNER_WAIT_MS, startWaitMs = START_WAIT_MS } = {}) {
  if (!modules.length || modules.some((m) => !/^\/[\w./-]+\.js$/.test(m))) throw new Error(`boot loader: not module paths: ${modules.join(', ')}`)
  const imports = modules.map((m) => `import(${JSON.stringify(m)})`).join(';')
  return (
    `(function(){var started=0;function go(){if(started)return;started=1;${imports}}` +
    `function afterPaint(){requestAnimationFrame(function(){setTimeout(go,0)})}` +
    `setTimeout(go,${startWaitMs});` +
    `if(document.visibilityState==='hidden')return go();` +
    `if(!navigator.onLine)return document.querySelector('#root>[data-snapshot]')?afterPaint():go();` +
    `if(!document.querySelector('#root>*'))return go();` +
    `var img=document.querySelector('#root .banner img');` +
    `if(img&&!img.complete){img.addEventListener('load',afterPaint);img.addEventListener('error',afterPaint);setTimeout(afterPaint,${bannerWaitMs})}else afterPaint()})()`
  )
}
