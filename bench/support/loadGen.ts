// What the load generators of the bench share: the outcome of one request, read from NADI's envelope
// (`ok` for HTTP 200 with code 200, else `<status>/<code>` or the socket's error code), and a seeded random.

import type http from 'node:http'

/** Resolves with the answer's outcome once its body is read. */
export function envelopeOutcome(res: http.IncomingMessage, resolve: (outcome: string) => void): void {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => {
    let code: unknown
    try {
      code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: unknown }).code
    } catch {
      code = 'unparsable'
    }
    resolve(res.statusCode === 200 && code === 200 ? 'ok' : `${res.statusCode}/${String(code)}`)
  })
  res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'response error'))
}

/** A small seeded generator (xorshift32), so a bench's load is the same from run to run. */
export function xorshift(seed: number): () => number {
  let x = seed | 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}
