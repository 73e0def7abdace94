import type { Ctx } from '../../context.ts'
import { statement } from '../../db/query/types.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import { toWire, type WithdrawalRow } from './store.ts'

// user@withdraw (DESIGN §5): every change of a withdrawal pushed to its owner. Changes are made in
// several places — the user's request, the sender's passes, an operator's approval from the command
// line in another process — so they are read back from the table rather than announced by each:
// a short poll of what changed since the last look, deduplicated on (id, updated_at, status).

const CHANGED_SINCE = statement<WithdrawalRow, [since: bigint]>('SELECT * FROM withdrawals WHERE updated_at >= ? ORDER BY updated_at, id')

export type WithdrawPush = (userId: number, withdrawal: ReturnType<typeof toWire>) => void

export function startWithdrawPushes(ctx: Ctx, push: WithdrawPush, everyMs = 1000): () => void {
  let since = BigInt(ctx.now())
  let seen = new Set<string>()
  const required = ctx.config.limits.withdrawConfirmations
  return startJobs(ctx, [
    {
      name: 'withdraw-pushes',
      everyMs,
      run: async () => {
        const rows = await ctx.sql.all(CHANGED_SINCE, since)
        const last = rows.at(-1)
        if (!last) return
        const next = new Set<string>()
        for (const r of rows) {
          const key = `${r.id}:${r.updated_at}:${r.status}:${r.confirmations}`
          // Rows stamped in the last millisecond seen are read again next time; keys tell them apart.
          if (r.updated_at === last.updated_at) next.add(key)
          if (seen.has(key)) continue
          push(Number(r.user_id), toWire(r, required))
        }
        since = last.updated_at
        seen = next
      },
    },
  ])
}
