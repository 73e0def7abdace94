// A candidate in an election, as its own process (tests/integration/leader.test.ts): argv <url> <name>
// <key>. Prints one line per change, `lead <ms>` or `lose <ms>` (Date.now()); SIGTERM closes it in order.

import { elect } from '../../../server/roles/leader.ts'

const [url, name, key] = process.argv.slice(2)
const say = (what: string) => void process.stdout.write(`${what} ${Date.now()}\n`)
const quiet = { info() {}, warn() {}, error: (o: unknown, m?: string) => process.stderr.write(`${m ?? ''} ${String((o as { err?: unknown }).err)}\n`) }
const election = elect({ url: url!, name: name!, key: Number(key), onLead: () => say('lead'), onLose: () => say('lose'), log: quiet })
process.on('SIGTERM', () => {
  void election.close().then(() => {
    say('closed')
    process.exit(0)
  })
})
say('started')
