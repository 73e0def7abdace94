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
  /** Returns the exit code. */
  run(args: string[], env: CommandEnv): number | Promise<number>
}
