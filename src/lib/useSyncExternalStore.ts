// What wouter and @preact/signals-react import as `use-sync-external-store/shim` (vite.config.ts
// resolve.alias): React 19 has the hook itself, and the shim's fallback for React 17 would only
// weigh on the first load.
export { useSyncExternalStore } from 'react'
