// Upload rules (DESIGN §10 "Uploads"), pure and shared: the app checks a picked file before asking
// for an upload URL, the server enforces the same rules. No imports, so the app may import it by value.

/** What an upload is for; each purpose has its own folder under the user's prefix. */
export const UPLOAD_PURPOSES = ['car_apply'] as const
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number]

/** The content types accepted, each with the extension its key ends in. */
export const UPLOAD_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
} as const
export type UploadType = keyof typeof UPLOAD_TYPES
export const UPLOAD_TYPE_LIST = Object.keys(UPLOAD_TYPES) as UploadType[]

/** The default largest upload, bytes (5 MiB); the server's NADI_UPLOAD_MAX_BYTES may change it (its refusal names the limit in force). */
export const UPLOAD_MAX_BYTES_DEFAULT = 5 * 1024 * 1024

export const isUploadType = (v: unknown): v is UploadType => typeof v === 'string' && Object.hasOwn(UPLOAD_TYPES, v)
export const isUploadPurpose = (v: unknown): v is UploadPurpose => typeof v === 'string' && (UPLOAD_PURPOSES as readonly string[]).includes(v)

export type UploadProblem = 'type' | 'empty' | 'tooLarge'

/** A file as picked: an accepted type, not empty, not above the limit. */
export function checkUpload(type: string, size: number, maxBytes: number): UploadProblem | null {
  if (!isUploadType(type)) return 'type'
  if (size > maxBytes) return 'tooLarge'
  if (!Number.isSafeInteger(size) || size < 1) return 'empty'
  return null
}

/** The limit in whole megabytes (rounded up) for messages: "at most 5 MB". */
export const megabytes = (bytes: number): number => Math.ceil(bytes / (1024 * 1024))

/**
 * Whether the first bytes of a file are those of its declared type (PNG, JPEG, WebP and PDF signatures):
 * a file named .png that is really HTML is refused, so nothing served back can be read as another type.
 */
export function matchesSignature(type: UploadType, head: Uint8Array): boolean {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b)
  switch (type) {
    case 'image/png':
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)
    case 'image/jpeg':
      return starts(0xff, 0xd8, 0xff)
    case 'image/webp':
      return starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50
    case 'application/pdf':
      return starts(0x25, 0x50, 0x44, 0x46, 0x2d)
  }
}

/** Bytes of a file's head that matchesSignature reads. */
export const SIGNATURE_BYTES = 12

/**
 * The shape of an upload key: `u/<user id>/<purpose>/<32 hex>.<ext>`. The user's prefix makes a key
 * say whose it is; the server still checks the owner recorded with it.
 */
export const UPLOAD_KEY_PATTERN = '^u/[1-9][0-9]{0,15}/[a-z_]{1,32}/[0-9a-f]{32}\\.(jpg|png|webp|pdf)$'
export const UPLOAD_KEY_MAX = 80
