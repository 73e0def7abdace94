// The operators' commands (issue 35), listed in server/cli.ts. They run the same functions as the
// console's routes (./operators.ts), so the first admin — who can only be added here — and every later
// change land in the same tables and the same operator log.
//
//   operator add <address> <role> [reason…] [--as <operator>]   a new operator: viewer|support|finance|admin
//   operator remove <address> [reason…] [--as <operator>]       removed, and every session of theirs ends at once
//   operator list [--json]                                      the current operators
//   oplog [--object <type>[:<id>]] [--operator <address|cli:user>] [--since <ISO>] [--limit <n>] [--json]
//
// A write is logged as the operator `--as` names (a current operator, with their role), or else as the
// OS user who ran the command, cli:<user>.
import { getAddress } from 'ethers'
import { OPERATOR_ROLES, OPLOG_REASON_MAX } from '../../../contract/operator.ts'
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { json, UsageError } from '../../commands/args.ts'
import { parseInstant } from '../../commands/fileSchemas.ts'
import { translate } from '../../i18n.ts'
import { addOperator, currentOperator, listOperators, listOplog, normalAddress, OperatorRefused, removeOperator, shellActor, type Actor } from './operators.ts'
import { isRole } from './roles.ts'

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')

/** The value of `flag` taken out of rest, or undefined when absent; a flag without its value is bad usage. */
function takeFlag(name: string, rest: string[], flag: string): string | undefined {
  const at = rest.indexOf(flag)
  if (at < 0) return undefined
  const value = rest[at + 1]
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name}: ${flag} takes a value`)
  rest.splice(at, 2)
  return value
}

/** Who the command's write is logged as: the `--as` operator (a current one), else the OS user. */
async function actorOf(name: string, rest: string[], env: CommandEnv): Promise<Actor> {
  const as = takeFlag(name, rest, '--as')
  if (as === undefined) return shellActor(env.osUser)
  if (!normalAddress(as)) throw new UsageError(`${name}: --as takes an operator's address (0x and 40 hex digits), got "${as}"`)
  const operator = await currentOperator(env.database().sql, as)
  if (!operator) throw new OperatorRefused(404, 404, 'operator.errors.notOperator', { address: getAddress(as.toLowerCase()) })
  return { actor: operator.address, role: operator.role }
}

function reasonOf(name: string, words: readonly string[]): string | null {
  if (words.some((w) => w.startsWith('--'))) throw new UsageError(`${name}: unexpected ${words.find((w) => w.startsWith('--'))}`)
  const reason = words.join(' ').trim()
  if (reason.length > OPLOG_REASON_MAX) throw new UsageError(`${name}: the reason is longer than ${OPLOG_REASON_MAX} characters`)
  return reason || null
}

/** A refusal (nothing written) as the CLI prints it, exit 1: the English of the console's localized message. */
async function refusal(env: CommandEnv, name: string, action: () => Promise<number>): Promise<number> {
  try {
    return await action()
  } catch (e) {
    if (!(e instanceof OperatorRefused)) throw e
    env.io.err(`${name}: ${translate('EN', e.key, e.params)}`)
    return 1
  }
}

export const OPERATOR_COMMANDS: readonly Command[] = [
  {
    words: ['operator', 'add'],
    args: '<address> <role> [reason…] [--as <operator>]',
    summary: `add a console operator (role: ${OPERATOR_ROLES.join('|')}); the first admin is added only so`,
    writes: true,
    needs: 'database',
    async run(args, env) {
      const name = 'operator add'
      const rest = [...args]
      return refusal(env, name, async () => {
        const by = await actorOf(name, rest, env)
        const [address, role, ...words] = rest
        if (address === undefined || role === undefined) throw new UsageError(`usage: ${name} <address> <role> [reason…] [--as <operator>]`)
        if (!normalAddress(address)) throw new UsageError(`${name}: "${address}" is not a wallet address (0x and 40 hex digits)`)
        if (!isRole(role)) throw new UsageError(`${name}: the role is one of ${OPERATOR_ROLES.join(', ')}, got "${role}"`)
        const added = await addOperator(env.database().sql, { address, role, by, reason: reasonOf(name, words), now: Date.now() })
        env.io.out(`operator added: ${added.address} ${added.role} (by ${by.actor})`)
        return 0
      })
    },
  },
  {
    words: ['operator', 'remove'],
    args: '<address> [reason…] [--as <operator>]',
    summary: "remove a console operator: their sessions end at once",
    writes: true,
    needs: 'database',
    async run(args, env) {
      const name = 'operator remove'
      const rest = [...args]
      return refusal(env, name, async () => {
        const by = await actorOf(name, rest, env)
        const [address, ...words] = rest
        if (address === undefined) throw new UsageError(`usage: ${name} <address> [reason…] [--as <operator>]`)
        if (!normalAddress(address)) throw new UsageError(`${name}: "${address}" is not a wallet address (0x and 40 hex digits)`)
        const removed = await removeOperator(env.database().sql, { address, by, reason: reasonOf(name, words), now: Date.now() })
        env.io.out(`operator removed: ${removed.address} (was ${removed.role}; by ${by.actor})`)
        return 0
      })
    },
  },
  {
    words: ['operator', 'list'],
    args: '[--json]',
    summary: 'the current console operators and their roles',
    async run(args, env) {
      if (args.some((a) => a !== '--json')) throw new UsageError('usage: operator list [--json]')
      const list = await listOperators(env.database().sql)
      if (args.includes('--json')) env.io.out(json(list))
      else if (list.length === 0) env.io.out('no operators (add the first admin: operator add <address> admin)')
      else for (const o of list) env.io.out(`${o.address} ${o.role.padEnd(7)} added ${iso(o.added_at)} by ${o.added_by}`)
      return 0
    },
  },
  {
    words: ['oplog'],
    args: '[--object <type>[:<id>]] [--operator <address|cli:user>] [--since <ISO>] [--limit <n>] [--json]',
    summary: 'the operator log, newest first, by object, operator or moment',
    async run(args, env) {
      const name = 'oplog'
      const rest = [...args]
      const object = takeFlag(name, rest, '--object')
      const actor = takeFlag(name, rest, '--operator')
      const since = takeFlag(name, rest, '--since')
      const limit = takeFlag(name, rest, '--limit')
      const asJson = rest.includes('--json')
      if (rest.some((a) => a !== '--json')) throw new UsageError(`${name}: unexpected ${rest.filter((a) => a !== '--json').join(' ')}`)
      const [objectType, ...id] = object?.split(':') ?? []
      if (objectType !== undefined && !/^[a-z_]{1,32}$/.test(objectType)) throw new UsageError(`${name}: --object takes <type>[:<id>], e.g. operator:0x…, got "${object}"`)
      const sinceMs = since === undefined ? undefined : parseInstant(/^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00Z` : since)
      if (sinceMs === null) throw new UsageError(`${name}: --since takes an ISO date or moment, e.g. 2026-12-01 or 2026-12-01T08:00:00Z, got "${since}"`)
      const pageSize = limit === undefined ? 50 : Number(limit)
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new UsageError(`${name}: --limit takes 1 to 1000, got "${limit}"`)
      const { list, total } = await listOplog(env.database().sql, { objectType, objectId: id.length ? id.join(':') : undefined, actor, since: sinceMs, page: 1, pageSize })
      if (asJson) env.io.out(json({ list, total }))
      else if (list.length === 0) env.io.out('no entries')
      else {
        for (const e of list) {
          const change = `${e.before === null ? '-' : JSON.stringify(e.before)} -> ${e.after === null ? '-' : JSON.stringify(e.after)}`
          env.io.out(`#${e.id} ${iso(e.at)} ${e.actor}${e.role ? ` (${e.role})` : ''} ${e.action} ${e.object_type}:${e.object_id} ${change}${e.reason ? ` "${e.reason}"` : ''}`)
        }
        if (total > list.length) env.io.out(`(${list.length} of ${total}; --limit for more)`)
      }
      return 0
    },
  },
]
