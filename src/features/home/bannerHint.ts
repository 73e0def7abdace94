import { BANNER_PRELOAD_ATTR } from '../../../contract/constants.ts'
import { storage } from '../../lib/storage.ts'

/**
 * The first home banner, known before the banner list arrives: the home shell names it in a preload
 * tag (server/http/shell.ts), or, in a shell the service worker gave, index.html's inline script
 * preloaded the one last shown from HINT_KEY. Drawing it at once makes the banner — the home screen's
 * largest paint — wait neither for the list's request nor for a network that is not there.
 */

/** localStorage key of the first banner last shown; index.html's inline script reads it by this name. */
export const HINT_KEY = 'home_banner'

/** The preloaded first banner's image, or null when the shell named none. */
export function bannerHint(doc: Pick<Document, 'querySelector'> = document): string | null {
  return doc.querySelector(`link[${BANNER_PRELOAD_ATTR}]`)?.getAttribute('href') || null
}

/** Keeps the first banner shown (or that there is none) for the next start's preload. */
export function rememberFirstBanner(image: string | undefined): void {
  if (!image) storage.remove(HINT_KEY)
  else if (storage.get(HINT_KEY) !== image) storage.set(HINT_KEY, image)
}
