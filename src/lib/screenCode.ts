// Rules about the screens' code (each screen is its own chunk): whether the app may spend the user's
// data fetching it ahead for offline use, and whether an error means it could not be fetched. Pure.

/** What the Network Information API says of the link; absent where the browser does not tell. */
export interface LinkInfo {
  saveData?: boolean
  effectiveType?: string
}

/**
 * Only online and only when the user has not asked to save data (Save-Data, "Lite mode"): a phone
 * on a metered plan fetches a screen's code when it opens it, as before.
 */
export function mayFetchAhead(onLine: boolean, link: LinkInfo | undefined): boolean {
  return onLine && link?.saveData !== true
}

/**
 * A dynamic import that failed to fetch its module (or a CSS file or dependency it preloads), in the
 * words of Chromium, Firefox, Safari and Vite's preload helper: the screen's code is not on this
 * phone and the network did not bring it. Any other error is a fault of the screen itself.
 */
export function isCodeLoadFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message)
}
