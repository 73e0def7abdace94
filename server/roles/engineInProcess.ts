// Until the market's engine has a role of its own (elected per market: issue 19's engine part), it runs
// inside the api process with its book in memory, and a second api process on the same database would
// trade on a book of its own over the same journal and ledger. So an api process holds the market's
// engine key exclusively — the key the engine election will use — and a second one is refused at
// start, naming the first, instead of corrupting the market.

import os from 'node:os'
import { advisoryHolder, unlockAndClose } from '../db/writerLock.ts'
import { PgSync } from '../db/pg/sync.ts'

/** The advisory lock key of market m's engine is ENGINE_KEY + m (the sketch's 7 411 200 + market index). */
export const ENGINE_KEY = 7_411_200

export class EngineBusy extends Error {
  override name = 'EngineBusy'
}

/** Holds market `index`'s engine key for this process's life, or throws EngineBusy naming who holds it. */
export function holdEngineInProcess(url: string, role: string, market: { instId: string; index: number }): { release(): void } {
  const conn = new PgSync(url, { appName: `nadi ${role} pid ${process.pid} on ${os.hostname()}`.slice(0, 63) })
  let got = false
  try {
    got = conn.prepare('SELECT pg_try_advisory_lock(?) AS got').pluck().get(ENGINE_KEY + market.index) === 1n
    if (!got) {
      const h = advisoryHolder(conn, ENGINE_KEY + market.index)?.holder
      const who = h ? `${h.role} pid ${h.pid} on ${h.host}, started ${new Date(h.startedAt).toISOString()}` : 'another process'
      throw new EngineBusy(
        `the market ${market.instId}'s engine already runs in ${who}: until the engine has a role of its own it runs inside an api process, so one api process per database for now; stop that one first`,
      )
    }
  } finally {
    if (!got) conn.close()
  }
  let released = false
  return {
    release() {
      if (released) return
      released = true
      unlockAndClose(conn)
    },
  }
}
