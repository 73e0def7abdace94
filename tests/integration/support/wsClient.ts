import WebSocket from 'ws'
import type { TestServer } from './server.ts'

/** A socket client that queues what it receives, so a test reads frames in order. */
export class Client {
  private readonly queue: string[] = []
  private waiter: ((text: string) => void) | null = null
  closed: { code: number } | null = null

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString()
      if (this.waiter) {
        const w = this.waiter
        this.waiter = null
        w(text)
      } else this.queue.push(text)
    })
    ws.on('close', (code) => (this.closed = { code }))
  }

  /** On the in-process test server, or on a server's base URL (a child process); `query` is a whole query string (the envelope's proof). */
  static async open(s: TestServer | string, token?: string, query?: string): Promise<Client> {
    const base = (typeof s === 'string' ? s : await s.listen()).replace(/^http/, 'ws')
    const ws = new WebSocket(`${base}/ws${query !== undefined ? `?${query}` : token ? `?token=${encodeURIComponent(token)}` : ''}`)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return new Client(ws)
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The next text frame, or a failure after `ms`. */
  nextText(ms = 2000): Promise<string> {
    const queued = this.queue.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null
        reject(new Error('no frame received'))
      }, ms)
      this.waiter = (text) => {
        clearTimeout(timer)
        resolve(text)
      }
    })
  }

  async next<T = Record<string, unknown>>(ms?: number): Promise<T> {
    return JSON.parse(await this.nextText(ms)) as T
  }

  /** True when nothing arrives within `ms`. */
  async silent(ms = 150): Promise<boolean> {
    return this.nextText(ms).then(
      () => false,
      () => true,
    )
  }

  get open() {
    return this.ws.readyState === WebSocket.OPEN
  }

  close() {
    this.ws.close()
  }
}
