/**
 * The operator's command line (the console, issue 35, runs the same functions): `tsx server/cli.ts <command> [args]`.
 *
 *   audit [--json]    check every ledger invariant, print per-asset totals and every violation;
 *                     exit 1 on any violation
 *   withdraw list [--status <status>|open|all] [--json]
 *                     withdrawals: by default the open ones (requested ones wait for an operator)
 *   withdraw approve <id>            a requested withdrawal goes to the sender
 *   withdraw reject <id> [reason…]   a requested or approved (not yet signed) one fails; its funds return
 *
 *   car list [--status <s>|open|all] [--json]
 *                     car applications, by default the open ones (submitted, reviewing)
 *   car review <id>                  a submitted application is being reviewed
 *   car approve <id>                 a submitted or reviewing application is approved
 *   car reject <id> <reason…>        …or rejected, with the reason the applicant reads
 *
 *   market check      the market's journal, book, open orders and ledger side by side: where a journal
 *                     stops replaying, what disagrees, and what `market repair` would do
 *   market repair     rebuild a halted market's book from its open orders and the ledger (see
 *                     server/exchange/repair.ts), print what it did, and bring trading back
 *
 *   catalog load <file.json>          load or update catalogs (server/modules/goods/catalogFile.ts)
 *   orders list [--status holds|all|<s>] [--user <id>]   the holds (open unpaid orders of stock or seats)
 *                                     and what each holds until when, or the orders of a status or user
 *   orders show <order>               one order whole (server/modules/orders/commands.ts)
 *   ship <order> <company> <number>   a paid order pending shipment is shipped (pending receipt); a
 *                                     device order prints one activation code per device, to ship with it
 *   device codes <order>              new codes for a shipped device order's devices not activated yet
 *                                     (the earlier ones stop working); only their hashes are stored
 *                                     (<order>: the order's id or the order number its user sees)
 *   gold price <usdt per gram>        record the gold reference price the mall prices gold from
 *   release status | run | fund <NADI>  the release job: what is due and funded; post due days now;
 *                                     move NADI from the treasury to the release account (= fund releases NADI)
 *   ranking status | pay-total        the prize pools and the rankings' tops; pay the total pool's top N
 *                                     (at most once per UTC day)
 *   fund <account> <asset> <amount>   move money from the treasury to a platform account that pays
 *                                     users: mining, savings, releases (NADI), loans (USDT)
 *   airdrop <id> <asset> <amount-per-user> [--users <file>|all] [--day <YYYY-MM-DD>]
 *                                     credit each user the amount × their node airdrop multiplier from
 *                                     the treasury, once per (airdrop id, user)
 *   meme supply <amount> [--chain <key>]  enter MEME the hot wallet holds on a chain in the treasury
 *   settlement status [--days N]      the last settled days (positions, users, computed / paid / dust per
 *                                     kind and asset), the next day due, the funding accounts
 *   activity load <file.json> | list | status <slug> | fund <asset> <amount> | pay
 *                                     campaigns and their prizes (server/modules/activity/commands.ts)
 *   operator add <address> <role> [reason…] | remove <address> [reason…] | list   (--as <operator>)
 *   oplog [--object <type>[:<id>]] [--operator <who>] [--since <ISO>]
 *                                     the console's operators and the operator log (server/modules/
 *                                     operator/commands.ts); the first admin is added only so
 *   migrate | backup <file> | restore <file> | move-to <postgres-url> [--as-is]
 *                                     the database itself (server/db/commands.ts): pending migrations; a
 *                                     consistent copy of SQLite beside a running server; a copy put back
 *                                     (server stopped); a stopped SQLite folder moved into PostgreSQL
 *
 * Each command opens the configured database (loadConfig: NADI_DATABASE_URL, else NADI_DB_FILE, or
 * NADI_DATA_DIR/nadi.sqlite). Commands that only read (audit, withdraw list, market check) run beside a
 * live server (SQLite WAL; PostgreSQL's own concurrency).
 * Commands that write need the data folder's writer lock (server/db/writerLock.ts): with no server
 * running they take it; while a server holds it they are sent to that server over its operator socket
 * (server/ops.ts) and run inside it, so there is never a second writer. On PostgreSQL, while role
 * processes share the lock, a command that needs only the database (its `needs`, server/commands/
 * registry.ts) takes a share too and runs beside them; any other is refused, saying what to do
 * (docs/processes.md, "Operator commands"). Exit codes: 0 done, 1 the command found a problem or
 * failed or was refused, 2 bad usage.
 *
 * Each module owns its commands (its commands.ts: server/modules/<module>/, server/ledger/,
 * server/exchange/, server/db/) and this file registers them all in COMMANDS. To add a command (e.g.
 * `withdraw approve <id>`), add an entry to its module's list: its words, usage, summary and
 * run(args, env), with the argument helpers of server/commands/args.ts; one that writes says so, and
 * what it needs. The longest matching words win,
 * so `withdraw approve` and `withdraw reject` can sit side by side.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadConfig, type Config } from './config.ts'
import { openDatabase, type Database_ } from './db/index.ts'
import { sqliteOf } from './db/connection.ts'
import { migrate, migrateDatabase } from './db/migrate.ts'
import { DataFolderBusy, lockDatabase, type WriterLock } from './db/writerLock.ts'
import { Exchange } from './exchange/exchange.ts'
import { defaultSpec } from './exchange/engine/index.ts'
import { osUser, sendOps } from './ops.ts'
import { commandUsage, matchCommand, needsOf, refusedBesideRoles, registerCommands, type Command, type CommandEnv, type Io } from './commands/registry.ts'
import { UsageError } from './commands/args.ts'
import { AUDIT_COMMANDS } from './ledger/commands.ts'
import { WITHDRAW_COMMANDS } from './modules/withdraw/commands.ts'
import { CAR_COMMANDS } from './modules/car/commands.ts'
import { MARKET_COMMANDS } from './exchange/commands.ts'
import { CATALOG_COMMANDS, GOLD_COMMANDS } from './modules/goods/commands.ts'
import { PLEDGE_COMMANDS } from './modules/pledge/commands.ts'
import { NODE_COMMANDS } from './modules/node/commands.ts'
import { SHIP_COMMANDS } from './modules/preOrder/commands.ts'
import { DEVICE_COMMANDS } from './modules/device/commands.ts'
import { RELEASE_COMMANDS } from './modules/release/commands.ts'
import { FUND_COMMANDS, SETTLEMENT_COMMANDS } from './modules/settlement/commands.ts'
import { AIRDROP_COMMANDS } from './modules/airdrop/commands.ts'
import { RANKING_COMMANDS } from './modules/ranking/commands.ts'
import { ACTIVITY_COMMANDS } from './modules/activity/commands.ts'
import { ORDERS_COMMANDS } from './modules/orders/commands.ts'
import { BANNER_COMMANDS, NOTICE_COMMANDS } from './modules/notice/commands.ts'
import { DATABASE_COMMANDS } from './db/commands.ts'
import { OPERATOR_COMMANDS } from './modules/operator/commands.ts'
export type { Command, CommandEnv, Io } from './commands/registry.ts'

/** Every command, each module handing in its own, registered once (in the order `help` lists them). */
export const COMMANDS: readonly Command[] = registerCommands(
  AUDIT_COMMANDS,
  WITHDRAW_COMMANDS,
  CAR_COMMANDS,
  MARKET_COMMANDS,
  CATALOG_COMMANDS,
  PLEDGE_COMMANDS,
  NODE_COMMANDS,
  SHIP_COMMANDS,
  DEVICE_COMMANDS,
  GOLD_COMMANDS,
  RELEASE_COMMANDS,
  FUND_COMMANDS,
  AIRDROP_COMMANDS,
  RANKING_COMMANDS,
  ACTIVITY_COMMANDS,
  NOTICE_COMMANDS,
  BANNER_COMMANDS,
  SETTLEMENT_COMMANDS,
  ORDERS_COMMANDS,
  OPERATOR_COMMANDS,
  DATABASE_COMMANDS,
)

const usage = () => commandUsage(COMMANDS)
const match = (argv: string[]) => matchCommand(COMMANDS, argv)

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
  let market: Exchange | undefined
  let lock: WriterLock | undefined
  /** Set when the command runs beside role processes, under a share of the writer lock. */
  let besideRoles = false
  try {
    const config = loadConfig(opts.env ?? process.env, opts.cwd ?? process.cwd())
    const onSqlite = config.databaseUrl === null
    if (found.command.writes) {
      if (onSqlite && config.dbFile !== ':memory:' && !fs.existsSync(config.dbFile)) throw new UsageError(`no database at ${config.dbFile} (set NADI_DB_FILE or NADI_DATA_DIR)`)
      const name = found.command.words.join(' ')
      try {
        lock = await lockDatabase(config, `cli ${name}`)
      } catch (err) {
        if (!(err instanceof DataFolderBusy)) throw err
        // Some commands replace the database under the server: they never run inside it.
        if (found.command.stopped) throw new UsageError(`${name} needs the server stopped: ${err.message}`)
        if (err.conflict !== 'roles') return await forward(err, withAbsolutePaths(argv, opts.cwd ?? process.cwd()), io)
        // Role processes share the database: a command that needs only the database joins them as one
        // more writer; one that needs a process's memory or a job's pass cannot (server/commands/registry.ts).
        const needs = needsOf(found.command)
        if (needs !== 'database') {
          const h = err.holder
          io.err(refusedBesideRoles(name, needs, h ? `${h.role} pid ${h.pid} on ${h.host}` : 'another process'))
          return 1
        }
        try {
          lock = await lockDatabase(config, `cli ${name}`, { shared: true })
        } catch (again) {
          // The role processes stopped meanwhile and a server writing alone took their place: it runs the command.
          if (!(again instanceof DataFolderBusy)) throw again
          return await forward(again, withAbsolutePaths(argv, opts.cwd ?? process.cwd()), io)
        }
        besideRoles = true
      }
    }
    const env: CommandEnv = {
      config,
      io,
      inServer: false,
      osUser: osUser(),
      database() {
        if (opened) return opened
        if (!onSqlite) throw new Error(`${found.command.words.join(' ')} opens its database itself (ownDatabase) but asked for the CLI's`)
        if (config.dbFile !== ':memory:' && !fs.existsSync(config.dbFile)) {
          throw new UsageError(`no database at ${config.dbFile} (set NADI_DB_FILE or NADI_DATA_DIR)`)
        }
        opened = openDatabase(config.database)
        migrate(sqliteOf(opened, 'the CLI on SQLite'))
        return opened
      },
      async market() {
        // Beside role processes the market's engine is theirs: a second one here would trade on a book of its own.
        if (besideRoles) throw new Error(`${found.command.words.join(' ')} is marked as needing only the database (needs: 'database') but asked for the market, whose engine runs in a role process`)
        if (!market) {
          market = new Exchange({
            conn: env.database(),
            spec: defaultSpec,
            fees: { makerFeePpm: config.trade.makerFeePpm, takerFeePpm: config.trade.takerFeePpm },
            now: Date.now,
            maxOpenPerUser: config.trade.maxOpenOrdersPerUser,
          })
          await market.start()
        }
        return market
      },
    }
    // SQLite is opened and migrated when the command first asks for it, synchronously. PostgreSQL
    // migrates through its pool, which takes awaiting: it is done before the command runs, unless
    // the command sees to its database itself (it may need it untouched, e.g. empty for move-to).
    if (!onSqlite && !found.command.ownDatabase) {
      opened = openDatabase(config.database)
      await migrateDatabase(opened)
    }
    return await found.command.run(found.args, env)
  } catch (err) {
    return failed(found.command, err, io)
  } finally {
    await market?.close()
    await opened?.close()
    await lock?.release()
  }
}

function failed(command: Command, err: unknown, io: Io): number {
  if (err instanceof UsageError) {
    io.err(err.message)
    return 2
  }
  io.err(`${command.words.join(' ')} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  return 1
}

/** A writing command while a server holds the data folder: the server runs it, or it is refused. */
/**
 * A command sent to the running server is run there, in the server's working directory: a relative
 * file argument (a catalog, node or pledge file, an activity file, `--users <file>`) is made absolute
 * here first, so it names the operator's file and not a file of the same name beside the server.
 */
export function withAbsolutePaths(argv: readonly string[], cwd: string): string[] {
  return argv.map((a, i) => (!path.isAbsolute(a) && (argv[i - 1] === '--users' ? a !== 'all' : /\.(json|txt|csv)$/i.test(a)) ? path.resolve(cwd, a) : a))
}

async function forward(busy: DataFolderBusy, argv: string[], io: Io): Promise<number> {
  const socket = busy.holder?.socket
  if (!socket) {
    io.err(`refused: ${busy.message}`)
    return 1
  }
  let r
  try {
    r = await sendOps(socket, argv)
  } catch (err) {
    io.err(`refused: ${busy.message}\n(its operator socket ${socket} did not answer: ${err instanceof Error ? err.message : String(err)})`)
    return 1
  }
  io.err(`(run inside ${busy.holder!.role} pid ${busy.holder!.pid}, which holds ${busy.database ?? path.dirname(busy.dbFile)})`)
  if (r.out) io.out(r.out.replace(/\n$/, ''))
  if (r.err) io.err(r.err.replace(/\n$/, ''))
  return r.code
}

export interface InServer {
  config: Config
  database: Database_
  market: Exchange
}

/**
 * Runs a command inside the server that holds the data folder (its operator socket): on the server's
 * own connection and live market, its output collected for the caller.
 */
export async function runInServer(argv: string[], server: InServer, user: string): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: Io = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) }
  const found = match(argv)
  if (!found) return { code: 2, out: '', err: `unknown command: ${argv.join(' ')}` }
  try {
    const code = await found.command.run(found.args, { config: server.config, io, inServer: true, osUser: user, database: () => server.database, market: async () => server.market })
    return { code, out, err }
  } catch (e) {
    const code = failed(found.command, e, io)
    return { code, out, err }
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
