// Plain values shared by app and server. No imports here: the app may import this file by value
// without pulling a schema library into its bundle.

/** API language codes (the LANG header), in the order the language switcher lists them. */
export const LANG_CODES = ['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS'] as const
export type LangCode = (typeof LANG_CODES)[number]
export const DEFAULT_LANG: LangCode = 'TW'

/** Locale file under locales/ for each API code. */
export const LOCALE_FILE: Record<LangCode, string> = {
  TW: 'tw', EN: 'en', ZH: 'zh', JP: 'jp', KO: 'ko', TH: 'th', PT: 'pt', ID: 'id', VN: 'vn', MS: 'ms',
}

/** BCP 47 tag per API code, for Intl and the html lang attribute. */
export const LANG_TAG: Record<LangCode, string> = {
  TW: 'zh-TW', EN: 'en', ZH: 'zh-CN', JP: 'ja', KO: 'ko', TH: 'th', PT: 'pt', ID: 'id', VN: 'vi', MS: 'ms',
}

/** Each language's own name, shown in the switcher. */
export const LANG_NAME: Record<LangCode, string> = {
  TW: '繁體中文', EN: 'English', ZH: '简体中文', JP: '日本語', KO: '한국어', TH: 'ไทย', PT: 'Português',
  ID: 'Bahasa Indonesia', VN: 'Tiếng Việt', MS: 'Bahasa Melayu',
}

/** A two-or-so character label for tight places such as the header chip. */
export const LANG_SHORT: Record<LangCode, string> = {
  TW: '繁', EN: 'EN', ZH: '简', JP: '日', KO: '한', TH: 'ไทย', PT: 'PT', ID: 'ID', VN: 'VI', MS: 'MS',
}

export function isLangCode(v: unknown): v is LangCode {
  return typeof v === 'string' && (LANG_CODES as readonly string[]).includes(v)
}

/** Body codes of the envelope (DESIGN §3). HTTP status carries the class; the body code the detail. */
export const CODE = {
  OK: 200,
  INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  SERVER: 500,
  /** A part of the service is paused (the market halted after a fault); the rest serves. */
  UNAVAILABLE: 503,
} as const

/** The envelope codes the app acts on (the HTTP status is 400 for each, 401 for SEAL_SESSION). */
export const SEAL_CODE = {
  /** The server takes only sealed requests: the app turns the envelope on and sends again. */
  REQUIRED: 4601,
  /** The handshake is unknown or expired: the app makes (or renews) one and sends once more. */
  RENEW: 4602,
  /** The timestamp is outside the window: the answer's data holds `server_time`; the app corrects and sends once more. */
  CLOCK: 4603,
  /** The same sign was seen before: a copy of a request, refused. */
  REPLAY: 4604,
  /** The sign does not match or the data does not decrypt: changed on the way. */
  INVALID: 4605,
} as const

export const PAGE_SIZE_DEFAULT = 10
export const PAGE_SIZE_MAX = 100
/** Money is integer units of 1e-8 on the server and decimal strings with at most 8 decimals on the wire. */
export const MONEY_DECIMALS = 8
export const DISPLAY_DECIMALS = 6
export const INVITE_CODE_PATTERN = '^[A-Z0-9]{4,16}$'

/** The attribute of the home shell's banner preload (server/http/shell.ts); the app and index.html's inline scripts look for it. */
export const BANNER_PRELOAD_ATTR = 'data-banner'

/** The envelope's handshake route (contract/seal.ts, docs/envelope.md): plain, or sealed to renew. */
export const HANDSHAKE_PATH = '/api/v1/common/handshake'
/** The public config, which tells the app whether the envelope is on: the app asks it plain. */
export const CONFIG_PATH = '/api/v1/common/config'

/**
 * Routes the envelope never seals, on both sides: health (balancers and the app's online check), the
 * demo's chain proxy, the upload PUT (signed by its URL) and the API's docs.
 */
export function sealedNever(method: string, path: string): boolean {
  return (
    (method === 'GET' && path === '/api/v1/common/health') ||
    (method === 'PUT' && path.startsWith('/api/v1/upload/')) ||
    ((method === 'GET' || method === 'POST') && path.startsWith('/api/v1/devchain/')) ||
    ((method === 'GET' || method === 'HEAD') && path.startsWith('/api/docs'))
  )
}
