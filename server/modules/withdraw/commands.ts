// The operator's withdrawal commands (server/cli.ts lists them): a requested withdrawal waits for an
// operator, who approves it (the sender signs and broadcasts it) or rejects it (its funds return).
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { json, onlyFlags, statusFlag, unlessRefused, UsageError } from '../../commands/args.ts'
import * as withdrawals from './store.ts'

const ALL_STATUSES: readonly withdrawals.WithdrawStatus[] = ['requested', 'approved', 'broadcast', 'confirmed', 'failed']

function withdrawalId(text: string): bigint {
  if (!/^[1-9][0-9]{0,17}$/.test(text)) throw new UsageError(`not a withdrawal id: ${text}`)
  return BigInt(text)
}

export const WITHDRAW_COMMANDS: Command[] = [
  {
    words: ['withdraw', 'list'],
    args: '[--status <s>|open|all] [--json]',
    summary: 'list withdrawals, by default the open ones (requested, approved, broadcast); requested ones wait for `withdraw approve` or `withdraw reject`',
    async run(args, env) {
      const rest = [...args]
      const asJson = rest.includes('--json')
      const statuses = statusFlag('withdraw list', rest, ALL_STATUSES, withdrawals.OPEN_STATUSES)
      onlyFlags('withdraw list', rest, ['--json'])
      const rows = await withdrawals.inStatus({ ...env.database(), now: Date.now }, statuses, { limit: 10_000 })
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
    writes: true,
    needs: 'database',
    summary: 'approve a requested withdrawal: the sender signs and broadcasts it on its next pass',
    async run(args, env) {
      if (args.length !== 1) throw new UsageError('usage: withdraw approve <id>')
      const id = withdrawalId(args[0]!)
      return unlessRefused(env, 'withdraw approve', [withdrawals.WithdrawStateError], async () => {
        const store = { ...env.database(), now: Date.now }
        const row = await withdrawals.approve(store, id)
        env.io.out(`withdrawal #${row.id} approved: ${formatMoney(row.amount)} ${row.coin} to ${row.address} on ${row.chain}`)
        return 0
      })
    },
  },
  {
    words: ['withdraw', 'reject'],
    args: '<id> [reason…]',
    writes: true,
    needs: 'database',
    summary: 'reject a requested or approved (not yet signed) withdrawal: it fails and amount + fee return to the user',
    async run(args, env) {
      if (args.length < 1) throw new UsageError('usage: withdraw reject <id> [reason…]')
      const id = withdrawalId(args[0]!)
      const reason = args.slice(1).join(' ').trim() || null
      return unlessRefused(env, 'withdraw reject', [withdrawals.WithdrawStateError], async () => {
        const store = { ...env.database(), now: Date.now }
        const row = await withdrawals.reject(store, id, reason)
        env.io.out(`withdrawal #${row.id} rejected; ${formatMoney(row.amount + row.fee)} ${row.coin} returned to user ${row.user_id}`)
        return 0
      })
    },
  },
]
