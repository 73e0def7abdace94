// The operator's ranking commands (server/cli.ts lists them): what the pools hold and accrue, and
// the total pool's payout, which is an operator's decision rather than a schedule.
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { isoDay } from '../settlement/service.ts'
import { createRankingService, payTotal, poolsNow, TotalAlreadyPaid } from './service.ts'

export const RANKING_COMMANDS: Command[] = [
  {
    words: ['ranking', 'status'],
    args: '',
    summary: 'the prize pools (balance, today’s accrual, prize shares), today’s top of the daily ranking and the total ranking’s top',
    async run(args, env) {
      if (args.length) {
        env.io.err('usage: ranking status')
        return 2
      }
      const { sql } = env.database()
      const ctx = { sql, config: env.config, now: Date.now }
      const p = await poolsNow(ctx.sql, env.config.ranking, ctx.now())
      env.io.out(`today ${isoDay(p.day)} (the daily pool pays its top ${p.daily.top} when it ends, UTC)`)
      for (const [name, pool] of [
        ['daily', p.daily],
        ['total', p.total],
      ] as const) {
        env.io.out(`${name} pool: ${pool.balance.USDT} USDT, ${pool.balance.NADI} NADI; today so far +${pool.today.USDT} USDT, +${pool.today.NADI} NADI (${pool.share}% of the income); prizes ${pool.prizes.map((x, i) => `#${i + 1} ${x}%`).join(', ')}`)
      }
      env.io.out(`total pool last paid: ${p.total_paid_day === null ? 'never' : isoDay(p.total_paid_day)}`)
      const svc = createRankingService(ctx)
      const show = (title: string, rows: { rank: number; user_id: number; name: string; amount: string }[]) => {
        env.io.out(title)
        if (rows.length === 0) env.io.out('  (nobody yet)')
        for (const r of rows) env.io.out(`  #${r.rank}  user ${r.user_id} ${r.name}  ${r.amount} USDT`)
      }
      show('today’s ranking:', (await svc.daily(undefined, 1, p.daily.top)).list)
      show('total ranking:', (await svc.total(1, p.total.top)).list)
      return 0
    },
  },
  {
    words: ['ranking', 'pay-total'],
    args: '',
    writes: true,
    needs: 'database',
    summary: 'pay the total ranking’s top N from the total pool (their share of its balance each), at most once per UTC day',
    async run(args, env) {
      if (args.length) {
        env.io.err('usage: ranking pay-total')
        return 2
      }
      const { sql } = env.database()
      try {
        const done = await sql.transaction((tx) => payTotal(tx, env.config.ranking.totalShares, Date.now()))
        env.io.out(`total pool paid ${isoDay(done.day)}: ${done.winners} winners, ${formatMoney(done.paid.USDT)} USDT and ${formatMoney(done.paid.NADI)} NADI`)
        return 0
      } catch (err) {
        if (!(err instanceof TotalAlreadyPaid)) throw err
        env.io.err(`ranking pay-total: ${err.message}; nothing paid`)
        return 1
      }
    },
  },
]
