// What several operator commands read from their arguments the same way, so a usage error reads the
// same whichever command an operator mistypes. A UsageError exits 2 with its message (server/cli.ts).
import fs from 'node:fs'
import path from 'node:path'
import { parseMoney } from '../../contract/money.ts'
import { INT64_MAX } from '../ledger/index.ts'
import type { CommandEnv } from './registry.ts'

/** Bad usage: the message is printed as it is and the command exits 2. */
export class UsageError extends Error {}

/** A command's --json output: indented, bigints as their digits. */
export const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)

/** Refuses every argument but the given flags, naming the command: `audit: unexpected x`. */
export function onlyFlags(name: string, args: readonly string[], flags: readonly string[] = []): void {
  const unknown = args.filter((a) => !flags.includes(a))
  if (unknown.length) throw new UsageError(`${name}: unexpected ${unknown.join(' ')}`)
}

/**
 * `--status <s>|open|all`, taken out of rest: the statuses a list command shows, the open ones when
 * the flag is absent.
 */
export function statusFlag<S extends string>(name: string, rest: string[], all: readonly S[], open: readonly S[]): readonly S[] {
  const at = rest.indexOf('--status')
  if (at < 0) return open
  const s = rest[at + 1] ?? ''
  const statuses = s === 'all' ? all : s === 'open' ? open : (all as readonly string[]).includes(s) ? [s as S] : null
  if (!statuses) throw new UsageError(`${name}: --status takes ${all.join(', ')}, open or all`)
  rest.splice(at, 2)
  return statuses
}

/** An amount an operator moves or sets: above 0 and within the ledger's range, else null. */
export function positiveAmount(text: string): bigint | null {
  const amount = parseMoney(text)
  return amount === null || amount <= 0n || amount > INT64_MAX ? null : amount
}

/** A JSON file the operator names (relative to where the command runs); a syntax error throws SyntaxError. */
export function readJsonFile(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.resolve(file), 'utf8'))
}

type Refusal = abstract new (...args: never[]) => Error

/**
 * Runs what a command does; an error of a kind its module refuses with (nothing was written) is the
 * command's answer, `<command>: <why>` and exit 1, while any other error stays a failure. `why` may
 * add what the operator does next.
 */
export async function unlessRefused(
  env: CommandEnv,
  name: string,
  refusals: readonly Refusal[],
  action: () => number | Promise<number>,
  why: (message: string) => string = (message) => message,
): Promise<number> {
  try {
    return await action()
  } catch (err) {
    if (!refusals.some((r) => err instanceof r)) throw err
    env.io.err(`${name}: ${why((err as Error).message)}`)
    return 1
  }
}
