// Uploading a document (DESIGN §10 "Uploads"): ask common/generateR2PresignedUrl for a URL bound to the
// file's size and type, then PUT the file to it — this server's own store or an S3-compatible bucket,
// the app need not know which. XMLHttpRequest, not fetch: only it reports upload progress.
import type { ApiEnvelope } from '../../../contract/envelope.ts'
import type { PresignedUpload } from '../../../contract/upload.ts'
import { checkUpload, megabytes, UPLOAD_MAX_BYTES_DEFAULT, type UploadProblem } from '../../../contract/uploadRules.ts'
import { ApiFailure, post, transmit } from '../../api/client.ts'
import { reportNetworkFailure } from '../../api/online.ts'
import { getToken } from '../../api/session.ts'
import { lang, t } from '../../i18n/index.ts'

/** The largest file the form offers to send (the server's default; a server set otherwise says so when asked). */
export const MAX_BYTES = UPLOAD_MAX_BYTES_DEFAULT
export const MAX_MB = megabytes(MAX_BYTES)
/** What the file picker offers. */
export const ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf'

/** A picked file's problem before anything is sent, as a locale key with its parameters. */
export function fileProblem(file: { type: string; size: number }): { key: string; params?: Record<string, number> } | null {
  const p: UploadProblem | null = checkUpload(file.type, file.size, MAX_BYTES)
  if (p === 'type') return { key: 'errors.uploadTypeUnsupported' }
  if (p === 'empty') return { key: 'errors.uploadEmpty' }
  if (p === 'tooLarge') return { key: 'errors.uploadTooLarge', params: { max: MAX_MB } }
  return null
}

/** The envelope's message of an answer, if it is one (a bucket answers XML). */
function serverMessage(body: string): string | null {
  try {
    return (JSON.parse(body) as ApiEnvelope<unknown>).msg || null
  } catch {
    return null
  }
}

/** PUTs a file to its presigned URL, reporting progress from 0 to 1; the server's words when it is refused. */
export function putFile(p: PresignedUpload, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(p.method, p.url)
    for (const [name, value] of Object.entries(p.headers)) xhr.setRequestHeader(name, value)
    // The local store answers in the user's language (a bucket ignores it).
    if (new URL(p.url, window.location.href).origin === window.location.origin) xhr.setRequestHeader('LANG', lang.value)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1)
        resolve()
        return
      }
      reject(new ApiFailure(serverMessage(xhr.responseText) ?? t('upload.failed'), xhr.status, xhr.status))
    }
    xhr.onerror = () => {
      reportNetworkFailure()
      reject(new ApiFailure(t('errors.network'), 500, 0))
    }
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

/** Presign + PUT: answers the key that names the file in car/apply. */
export async function uploadDocument(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  const p = await post<PresignedUpload>('common/generateR2PresignedUrl', { purpose: 'car_apply', content_type: file.type, size: file.size })
  await putFile(p, file, onProgress, signal)
  return p.key
}

/**
 * One of the user's uploaded files, as the server keeps it (only its owner may read it), for a preview.
 * With the envelope on it comes sealed like any answer; opened, its bytes are the file and its type the file's.
 */
export async function fetchUploadedFile(key: string, signal?: AbortSignal): Promise<Blob> {
  const res = await transmit({ method: 'GET', path: '/api/v1/common/uploadFile', query: { key }, token: getToken(), lang: lang.value, ...(signal ? { signal } : {}) })
  if (res.status !== 200) throw new ApiFailure(t('errors.loadFailed'), res.status, res.status)
  return new Blob([res.bytes as Uint8Array<ArrayBuffer>], { type: res.type }) // read from a Response or decrypted: never a shared buffer
}
