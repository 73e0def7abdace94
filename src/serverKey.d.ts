/** The envelope's server public key, built in by vite.config.ts (docs/envelope.md). */
declare const __NADI_SERVER_KEY__: string
