import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { queryClient } from './app/queryClient.ts'
import { initI18n, storedLang } from './i18n/index.ts'
import { prefetchHome } from './features/home/prefetch.ts'
import { registerServiceWorker } from './app/sw.ts'
import { startOnlineWatch } from './api/online.ts'
import { startOutboxDriver } from './app/outbox.ts'
import { registerAddressActions } from './features/address/outbox.ts'
import './ui/styles.css'

if (['/', '/index'].includes(window.location.pathname)) prefetchHome(queryClient, storedLang())
registerServiceWorker()
startOnlineWatch()
registerAddressActions(queryClient)
startOutboxDriver()
await initI18n()
createRoot(document.getElementById('root')!).render(<App />) // index.html always has #root
