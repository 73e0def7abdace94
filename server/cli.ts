/**
 * The operator's command line (there is no admin UI): `tsx server/cli.ts <command> [args]`.
 *
 *   audit [--json]    check every ledger invariant, print per-asset totals and every violation;
 *                     exit 1 on any violation
 *   withdraw list [--status <status>|open|all] [--json]
 *                     withdrawals: by default the open ones (requested ones wait for an operator)
 *   withdraw approve <id>            a requested withdrawal goes to the sender
 *   withdraw reject <id> [reason…]   a requested or approved (not yet signed) one fails; its funds return
 *
 * Each command opens the configured database (loadConfig: NADI_DB_FILE, or NADI_DATA_DIR/nadi.sqlite),
 * applies pending migrations, and runs beside a live server safely (SQLite WAL; writes take the write
 * lock like any request, and go through atomically like the server's). Exit codes: 0 done, 1 the
 * command found a problem or failed, 2 bad usage.
 *
 * To add a command (e.g. `withdraw approve <id>`), add an entry to COMMANDS: its words, usage,
 * summary and run(args, env). The longest matching words win, so `withdraw approve` and
 * `withdraw reject` can sit side by side.
 */
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'
import type Database from 'better-sqlite3'
import { loadConfig, type Config } from './config.ts'
import { atomically, openDatabase, type Database_ } from './db/index.ts'
import { migrate } from './db/migrate.ts'
import { audit, formatAudit } from './ledger/index.ts'
// Every feature that holds frozen funds, so the audit checks against the complete list.
import './ledger/holders.ts'
import { formatMoney } from '../contract/money.ts'
import * as withdrawals from './modules/withdraw/store.ts'

export interface Io {
  out(text: string): void
  err(text: string): void
}

export interface CommandEnv {
  config: Config
  io: Io
  /** Opens the configured database (once) and applies pending migrations. */
  database(): Database_
}

export interface Command {
  /** The words that name it, e.g. ['withdraw', 'approve']. */
  words: string[]
  /** Arguments after the words, for the usage text, e.g. '<id>'. */
  args: string
  summary: string
  /** Returns the exit code. */
  run(args: string[], env: CommandEnv): number | Promise<number>
}

const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)

export const COMMANDS: Command[] = [
  {
    words: ['audit'],
    args: '[--json]',
    summary: 'check the ledger: per asset everything sums to 0, no negative balance outside custody, balances equal their entries, every posting balances, frozen equals what is held',
    run(args, env) {
      const unknown = args.filter((a) => a !== '--json')
      if (unknown.length) throw new UsageError(`audit: unexpected ${unknown.join(' ')}`)
      const { sqlite } = env.database()
      const report = audit(sqlite as Database.Database)
      if (args.includes('--json')) env.io.out(json(report))
      else env.io.out(`database: ${env.config.dbFile}\n${formatAudit(report)}`)
      return report.ok ? 0 : 1
    },
  },
  {
    words: ['withdraw', 'list'],
    args: '[--status <s>|open|all] [--json]',
    summary: 'list withdrawals, by default the open ones (requested, approved, broadcast); requested ones wait for `withdraw approve` or `withdraw reject`',
    run(args, env) {
      let statuses: readonly withdrawals.WithdrawStatus[] = withdrawals.OPEN_STATUSES
      const rest = [...args]
      const asJson = rest.includes('--json')
      const at = rest.indexOf('--status')
      if (at >= 0) {
        const s = rest[at + 1]
        const all: withdrawals.WithdrawStatus[] = ['requested', 'approved', 'broadcast', 'confirmed', 'failed']
        if (s === 'all') statuses = all
        else if (s === 'open') statuses = withdrawals.OPEN_STATUSES
        else if (all.includes(s as withdrawals.WithdrawStatus)) statuses = [s as withdrawals.WithdrawStatus]
        else throw new UsageError(`withdraw list: --status takes ${all.join(', ')}, open or all`)
        rest.splice(at, 2)
      }
      const unknown = rest.filter((a) => a !== '--json')
      if (unknown.length) throw new UsageError(`withdraw list: unexpected ${unknown.join(' ')}`)
      const rows = withdrawals.inStatus({ ...env.database(), now: Date.now }, statuses, { limit: 10_000 })
      if (asJson) {
        env.io.out(json(rows.map(({ raw_tx: _raw, ...r }) => r)))
        return 0
      }
      if (rows.length === 0) {
        env.io.out(`no withdrawals (${statuses.join(', ')})`)
        return 0
      }
      for (const r of rows) {
        const parts = [
          `#${r.id}`,
          r.status,
          `user ${r.user_id}`,
          `${formatMoney(r.amount)} ${r.coin} + fee ${formatMoney(r.fee)}`,
          `${r.chain} → ${r.address}`,
          new Date(Number(r.created_at)).toISOString(),
        ]
        if (r.approved_by) parts.push(`approved by ${r.approved_by}`)
        if (r.tx_hash) parts.push(`tx ${r.tx_hash} (nonce ${r.nonce}, ${r.confirmations} confirmations)`)
        if (r.attempts > 0n) parts.push(`${r.attempts} failed attempts`)
        if (r.fail_reason) parts.push(`failed: ${r.fail_reason}${r.fail_detail ? ` (${r.fail_detail})` : ''}`)
        else if (r.last_error) parts.push(`last error: ${r.last_error}`)
        env.io.out(parts.join('  '))
      }
      return 0
    },
  },
  {
    words: ['withdraw', 'approve'],
    args: '<id>',
    summary: 'approve a requested withdrawal: the sender signs and broadcasts it on its next pass',
    async run(args, env) {
      if (args.length !== 1) throw new UsageError('usage: withdraw approve <id>')
      const id = withdrawalId(args[0]!)
      try {
        const store = { ...env.database(), now: Date.now }
        const row = await atomically(store, () => withdrawals.approve(store, id))
        env.io.out(`withdrawal #${row.id} approved: ${formatMoney(row.amount)} ${row.coin} to ${row.address} on ${row.chain}`)
        return 0
      } catch (err) {
        if (!(err instanceof withdrawals.WithdrawStateError)) throw err
        env.io.err(`withdraw approve: ${err.message}`)
        return 1
      }
    },
  },
  {
    words: ['withdraw', 'reject'],
    args: '<id> [reason…]',
    summary: 'reject a requested or approved (not yet signed) withdrawal: it fails and amount + fee return to the user',
    async run(args, env) {
      if (args.length < 1) throw new UsageError('usage: withdraw reject <id> [reason…]')
      const id = withdrawalId(args[0]!)
      const reason = args.slice(1).join(' ').trim() || null
      try {
        const store = { ...env.database(), now: Date.now }
        const row = await atomically(store, () => withdrawals.reject(store, id, reason))
        env.io.out(`withdrawal #${row.id} rejected; ${formatMoney(row.amount + row.fee)} ${row.coin} returned to user ${row.user_id}`)
        return 0
      } catch (err) {
        if (!(err instanceof withdrawals.WithdrawStateError)) throw err
        env.io.err(`withdraw reject: ${err.message}`)
        return 1
      }
    },
  },
]

class UsageError extends Error {}

function withdrawalId(text: string): bigint {
  if (!/^[1-9][0-9]{0,17}$/.test(text)) throw new UsageError(`not a withdrawal id: ${text}`)
  return BigInt(text)
}

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${[...c.words, c.args].filter(Boolean).join(' ').padEnd(24)} ${c.summary}`)
  return `usage: tsx server/cli.ts <command>\n\ncommands:\n${lines.join('\n')}`
}

/** Finds the command whose words start argv, the longest such first. */
function match(argv: string[]): { command: Command; args: string[] } | null {
  const found = COMMANDS.filter((c) => c.words.every((w, i) => argv[i] === w)).sort((a, b) => b.words.length - a.words.length)[0]
  return found ? { command: found, args: argv.slice(found.words.length) } : null
}

export interface MainOptions {
  env?: Record<string, string | undefined>
  cwd?: string
  io?: Io
}

/** Runs one command and answers its exit code; never calls process.exit (tests call it in process). */
export async function main(argv: string[], opts: MainOptions = {}): Promise<number> {
  const io: Io = opts.io ?? { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    io.out(usage())
    return argv.length === 0 ? 2 : 0
  }
  const found = match(argv)
  if (!found) {
    io.err(`unknown command: ${argv.join(' ')}\n\n${usage()}`)
    return 2
  }

  let opened: Database_ | undefined
  try {
    const config = loadConfig(opts.env ?? process.env, opts.cwd ?? process.cwd())
    const env: CommandEnv = {
      config,
      io,
      database() {
        if (opened) return opened
        if (config.dbFile !== ':memory:' && !fs.existsSync(config.dbFile)) {
          throw new UsageError(`no database at ${config.dbFile} (set NADI_DB_FILE or NADI_DATA_DIR)`)
        }
        opened = openDatabase(config.dbFile)
        migrate(opened.sqlite)
        return opened
      },
    }
    return await found.command.run(found.args, env)
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(err.message)
      return 2
    }
    io.err(`${found.command.words.join(' ')} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    return 1
  } finally {
    await opened?.close()
    opened?.sqlite.close()
  }
}

function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href
  } catch {
    return false
  }
}
if (invokedDirectly()) process.exitCode = await main(process.argv.slice(2))
