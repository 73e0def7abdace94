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
  market(): Exchange
  /** True when the command runs inside the server holding the data folder (sent over its operator socket). */
  inServer: boolean
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
