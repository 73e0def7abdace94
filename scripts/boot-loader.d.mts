// Types of scripts/boot-loader.mjs, for vite.config.ts and the unit tests.
export const BANNER_WAIT_MS: number
export const START_WAIT_MS: number
export function bootLoader(modules: string[], opts?: { bannerWaitMs?: number; startWaitMs?: number }): string
