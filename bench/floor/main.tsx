// The floor (issue 21): what React 19, react-dom and wouter cost on their own, drawing one line of text
// and the demo's first banner at the home banner's size. The bench measures our app against it.
import { createRoot } from 'react-dom/client'
import { Route, Switch } from 'wouter'

/** The demo's first banner (server/db/seed/content.ts), set by vite.config.ts floorConfig. */
declare const __FLOOR_BANNER__: { image: string; title: string }

function Home() {
  return (
    <main style={{ padding: 12 }}>
      {/* .banner-title: the bench's offline start waits for the same selector on our home screen. */}
      <p className="banner-title">{__FLOOR_BANNER__.title}</p>
      <img src={__FLOOR_BANNER__.image} alt="" width={750} height={300} fetchPriority="high" style={{ width: '100%', height: 'auto' }} />
    </main>
  )
}

createRoot(document.getElementById('root')!).render( // index.html always has #root
  <Switch>
    <Route path="/index" component={Home} />
    <Route component={Home} />
  </Switch>,
)

// As the app does (src/app/sw.ts): the worker registers after the page has loaded.
window.addEventListener('load', () => {
  navigator.serviceWorker?.register('/sw.js').catch(() => {})
})
