// One of several servers starting at once on a fresh PostgreSQL database (tests/integration/seeds.concurrent.test.ts):
// it migrates, prints "ready", waits for "go" on stdin so that all of them seed in the same instant,
// runs the start's seeds (server/roles/seeds.ts) as buildApp does, and prints one JSON line.
// argv: <database url>.

import os from 'node:os'
import readline from 'node:readline'
import type { FastifyBaseLogger } from 'fastify'
import { loadConfig } from '../../../server/config.ts'
import type { Ctx } from '../../../server/context.ts'
import { GroupCommit } from '../../../server/db/groupCommit.ts'
import { openDatabase } from '../../../server/db/index.ts'
import { migrateDatabase } from '../../../server/db/migrate.ts'
import { createAuthService } from '../../../server/modules/auth/service.ts'
import { seedAlone } from '../../../server/roles/seeds.ts'

const url = process.argv[2]!
const config = loadConfig({ NADI_ENV: 'test', NADI_DEMO: '1', NADI_DATABASE_URL: url, NADI_DATA_DIR: os.tmpdir() })
const { db, sql, close } = openDatabase(url)
await migrateDatabase({ sql })
const quiet = { level: 'silent', info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, silent() {}, child: () => quiet }
const conn = { db, sql }
// The seeds use the database, the settings, the clock and the log; never the chains, which this process does not start.
const ctx = { config, db, sql, now: Date.now, log: quiet as unknown as FastifyBaseLogger, commits: new GroupCommit(conn) } as Omit<Ctx, 'chain'> as Ctx

console.log('ready')
const lines = readline.createInterface({ input: process.stdin })
for await (const line of lines) {
  if (line !== 'go') continue
  try {
    const code = await seedAlone(ctx, createAuthService(ctx))
    console.log(JSON.stringify({ code }))
  } catch (e) {
    console.log(JSON.stringify({ failed: String(e instanceof Error ? e.message : e).slice(0, 300) }))
  }
  break
}
lines.close()
await ctx.commits.close()
await close()
