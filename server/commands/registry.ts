// The command contract, owned apart from the entry point (server/cli.ts) so that modules
// defining commands import this small file instead of the CLI that lists them (no import circle).
import type { Config } from '../config.ts'
import type { Database_ } from '../db/index.ts'
import type { Exchange } from '../exchange/exchange.ts'

export interface Io {
  out(text: string): void
  err(text: string): void
}

export interface CommandEnv {
  config: Config
  io: Io
  /** Opens the configured database (once) and applies pending migrations. */
  database(): Database_
  /** The market: the server's live one when the command runs inside the server, else one started on the database. */
  market(): Promise<Exchange>
  /** True when the command runs inside the server holding the data folder (sent over its operator socket). */
  inServer: boolean
  /**
   * The OS user who ran the command (the CLI's, carried over the operator socket when the server runs
   * it): a write with no operator named (`--as`) is logged as theirs, cli:<user>.
   */
  osUser: string
}

/**
 * What a writing command needs besides the writer lock, which decides where it runs while processes in
 * roles (--role api|engine|jobs) share the PostgreSQL database (docs/processes.md, "Operator commands"):
 *
 * - 'database' (class a): the database alone. Every guarantee its writes rely on is held by PostgreSQL
 *   itself — unique ledger refs, CHECKs, row locks, updates conditional on the row's state — so it runs
 *   beside the role processes as one more writer, under a share of the writer lock. Set only after
 *   reading the command's code for reads that decide a later write without a lock.
 * - 'memory' (class b): state a process keeps in memory, such as the market's engine and its book: it
 *   runs only in a process that writes alone (`--role all`, over its operator socket, or the command
 *   itself with the lock alone).
 * - 'jobs' (class b): a background job's pass, which the jobs leader runs on its own schedule; two
 *   passes at once are not what the job was written for, so beside role processes it is the leader's.
 * - 'schema' (class b): changes the schema the running processes were started on.
 *
 * A writing command that does not say counts as 'memory': beside concurrent writers only what has been
 * checked runs.
 */
export type Needs = 'database' | 'memory' | 'jobs' | 'schema'

/** A command's class: read only, replaced database (server stopped), or a writing command's needs. */
export type CommandClass = 'reads' | 'stopped' | Needs

/** A writing command's needs: as it says, else 'memory'. */
export const needsOf = (c: Pick<Command, 'needs'>): Needs => c.needs ?? 'memory'

export function classOf(c: Pick<Command, 'writes' | 'stopped' | 'needs'>): CommandClass {
  if (!c.writes) return 'reads'
  return c.stopped ? 'stopped' : needsOf(c)
}

/**
 * The one line that refuses a writing command that needs more than the database while role processes
 * share it (`beside` names one of them), saying what to do instead.
 */
export function refusedBesideRoles(name: string, needs: Exclude<Needs, 'database'>, beside: string): string {
  const roles = `role processes share the database (${beside})`
  const alone = 'stop every role process (--role api|engine|jobs), then run it again: it takes the database alone for its run'
  switch (needs) {
    case 'memory':
      return `refused: ${name} works on what a server keeps in memory (the market's engine and its book), which no other process can reach, and ${roles}: ${alone}.`
    case 'jobs':
      return `refused: ${name} is a background job's pass, which the jobs leader runs on its own schedule while ${roles}, and two passes at once could post the same work twice: wait for the leader's next pass, or ${alone}.`
    case 'schema':
      return `refused: ${name} changes the schema the running processes were started on, and ${roles}; each process migrates when it starts: ${alone}, or start them on the new version.`
  }
}

export interface Command {
  /** The words that name it, e.g. ['withdraw', 'approve']. */
  words: string[]
  /** Arguments after the words, for the usage text, e.g. '<id>'. */
  args: string
  summary: string
  /** Writes: needs the data folder's writer lock, or runs inside the server that holds it. */
  writes?: boolean
  /** Writes with the server stopped only (it replaces the database): refused, not forwarded, while a server runs. */
  stopped?: boolean
  /** A writing command's needs, which decide whether it may run beside role processes (see Needs). */
  needs?: Needs
  /**
   * Sees to its database itself (opens it, or only names it): the CLI neither opens nor migrates the
   * database for it, as on PostgreSQL it otherwise does before the command runs.
   */
  ownDatabase?: boolean
  /** Returns the exit code. */
  run(args: string[], env: CommandEnv): number | Promise<number>
}

/**
 * The commands of every module in one list, as each module hands in its own (the CLI's entry point
 * registers them once at load). The same words registered twice would make one of two commands
 * unreachable: refused, naming them.
 */
export function registerCommands(...sets: readonly (readonly Command[])[]): readonly Command[] {
  const all: Command[] = []
  const seen = new Map<string, Command>()
  for (const set of sets) {
    for (const c of set) {
      if (!c.words.length || c.words.some((w) => !/^[a-z][a-z0-9-]*$/.test(w))) throw new Error(`a command's words must be lower-case words, got ${JSON.stringify(c.words)}`)
      const key = c.words.join(' ')
      if (seen.has(key)) throw new Error(`two commands are registered as "${key}": ${seen.get(key)!.summary} / ${c.summary}`)
      seen.set(key, c)
      all.push(c)
    }
  }
  return all
}

/** The command whose words start argv, the longest such first (so `withdraw approve` beats `withdraw`). */
export function matchCommand(commands: readonly Command[], argv: readonly string[]): { command: Command; args: string[] } | null {
  const found = commands.filter((c) => c.words.every((w, i) => argv[i] === w)).sort((a, b) => b.words.length - a.words.length)[0]
  return found ? { command: found, args: argv.slice(found.words.length) } : null
}

/** The usage text: every registered command with its arguments and summary. */
export function commandUsage(commands: readonly Command[]): string {
  const lines = commands.map((c) => `  ${[...c.words, c.args].filter(Boolean).join(' ').padEnd(24)} ${c.summary}`)
  return `usage: tsx server/cli.ts <command>\n\ncommands:\n${lines.join('\n')}`
}
