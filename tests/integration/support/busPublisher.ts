// A publisher on the bus as its own process (tests/integration/bus.test.ts): argv <url> <topic>
// <count>. Waits for `go` on stdin, publishes count messages {n: 1…count} (every 100th one big
// enough to travel through bus_messages), prints `sent` once they have left, then closes.

import { PgBus } from '../../../server/roles/pgBus.ts'

const [url, topic, count] = process.argv.slice(2)
const log = { info() {}, warn() {}, error: (o: unknown, m?: string) => void process.stderr.write(`${m ?? ''} ${String((o as { err?: unknown }).err)}\n`) }
const bus = new PgBus({ url: url!, log, name: 'publisher' })
await bus.settled()
process.stdout.write('ready\n')
process.stdin.once('data', () => {
  for (let n = 1; n <= Number(count); n++) bus.publish(topic!, n % 100 === 0 ? { n, pad: 'x'.repeat(10_000) } : { n })
  void bus.settled().then(async () => {
    process.stdout.write('sent\n')
    await bus.close()
    process.exit(0)
  })
})
