import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { initI18n } from './i18n/index.ts'
import './ui/styles.css'

await initI18n()
createRoot(document.getElementById('root')!).render(<App />) // index.html always has #root
