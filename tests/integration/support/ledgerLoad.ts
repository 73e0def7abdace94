// One of several processes posting to one PostgreSQL ledger at once (tests/integration/ledger.concurrent.test.ts).
// argv: <url> <seed> <count> <userIds,comma> <shared refs>. Prints one JSON line of what happened.

import { PgPool } from '../../../server/db/query/pg.ts'
import { InsufficientFunds, fund, transfer } from '../../../server/ledger/index.ts'

const [url, seedText, countText, usersText, sharedText] = process.argv.slice(2)
// One connection per process, one posting at a time on it: the processes race each other, not themselves.
const conn = new PgPool(url!, { appName: `nadi ledger load ${seedText}`, max: 1 })
const users = usersText!.split(',').map((u) => BigInt(u))
let seed = Number(seedText)
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed % n
}
const out = { applied: 0, insufficient: 0, replayed: 0, failed: [] as string[] }
const sharedRefs = Number(sharedText)
for (let i = 0; i < Number(countText); i++) {
  const shared = i % 10 === 0 && i / 10 < sharedRefs
  const from = shared ? users[0]! : users[rand(users.length)]!
  let to = shared ? users[1]! : users[rand(users.length)]!
  if (to === from) to = users[(users.indexOf(from) + 1) % users.length]!
  const amount = shared ? 1_00000000n : BigInt(1 + rand(400)) * 1_00000000n
  try {
    // Outside a transaction, post opens its own: each posting commits on its own, racing the others.
    const r = await transfer(conn, { ref: shared ? `load:shared:${i / 10}` : `load:${seedText}:${i}`, reason: 'transfer', from: fund(from), to: fund(to), asset: 'USDT', amount, at: 1 })
    if (r.replayed) out.replayed++
    else out.applied++
  } catch (e) {
    if (e instanceof InsufficientFunds) out.insufficient++
    else out.failed.push(String((e as Error).message).slice(0, 200))
  }
}
await conn.close()
console.log(JSON.stringify(out))
