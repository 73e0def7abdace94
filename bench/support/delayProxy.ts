// A TCP proxy that adds a fixed delay to every answer a server sends back (issue 34 §6: "1 ms of round
// trip added between the server and PostgreSQL, as a database on another host would be"). Delaying
// one direction by the whole amount adds it once per round trip, and keeps the bytes in order.

import net from 'node:net'

export interface DelayProxy {
  port: number
  close(): Promise<void>
}

export async function delayProxy(target: { host: string; port: number }, delayMs: number): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.setNoDelay(true)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    // Chunks leave in the order they came, each delayMs after its arrival.
    let last = 0
    upstream.on('data', (chunk: Buffer) => {
      const due = Math.max(performance.now() + delayMs, last)
      last = due
      setTimeout(() => client.write(chunk), due - performance.now())
    })
    upstream.on('end', () => setTimeout(() => client.end(), Math.max(0, last - performance.now())))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
