// The operator's Super Miner node commands (server/cli.ts lists them): the tiers and loan plans are
// loaded from a file (./nodeFile.ts) and listed with the seats left and the open loans.
import type { Selectable } from 'kysely'
import { formatMoney } from '../../../contract/money.ts'
import type { LoanPlansTable, NodeTiersTable } from '../../db/schema.ts'
import type { Command } from '../../commands/registry.ts'
import { readJsonFile, unlessRefused, UsageError } from '../../commands/args.ts'
import { statement, statements } from '../../db/query/types.ts'
import { NodeFileInvalid, checkNodeFile, loadNodeFile } from './nodeFile.ts'

const LISTED = statements({
  tiers: statement<Selectable<NodeTiersTable>, []>('SELECT * FROM node_tiers ORDER BY sort, id'),
  plans: statement<Selectable<LoanPlansTable>, []>('SELECT * FROM loan_plans ORDER BY sort, id'),
  openLoans: statement<{ n: bigint; debt: bigint }, []>("SELECT count(*) AS n, coalesce(sum(debt), 0) AS debt FROM loans WHERE status = 'open'"),
})

export const NODE_COMMANDS: Command[] = [
  {
    words: ['node', 'load'],
    args: '<file.json>',
    writes: true,
    needs: 'database',
    summary: 'load the Super Miner node tiers (elite, core, genesis) and loan plans from a file (see server/modules/node/nodeFile.ts; nodes bought keep their terms, seats taken stay taken)',
    async run(args, env) {
      if (args.length !== 1) throw new UsageError('usage: node load <file.json>')
      return unlessRefused(env, 'node load', [NodeFileInvalid, SyntaxError], async () => {
        const file = checkNodeFile(readJsonFile(args[0]!))
        const db = env.database()
        const sum = await db.sql.transaction((tx) => loadNodeFile(tx, file, Date.now()))
        env.io.out(`node tiers loaded: ${sum.tiers}; loan plans loaded: ${sum.plans}`)
        return 0
      })
    },
  },
  {
    words: ['node', 'list'],
    args: '',
    summary: 'the node tiers (seats left of all, limit, stake, days, power, level, rates in ppm), the loan plans and the open loans',
    async run(_args, env) {
      const { sql } = env.database()
      for (const t of await sql.all(LISTED.tiers)) {
        env.io.out(
          `tier ${t.id} ${t.type} seats ${t.seats_left}/${t.seats_total} limit ${t.limit_num} stake ${formatMoney(t.amount as bigint)} USDT ${t.days} days power ${formatMoney(t.power as bigint)} T${t.level_id} withdraw ${t.withdraw_rate_ppm} ppm machine ${t.machine_rate_ppm} ppm${t.active === 1n ? '' : ' (inactive)'}`,
        )
      }
      for (const p of await sql.all(LISTED.plans)) {
        env.io.out(`plan ${p.id} ${p.slug} ltv ${p.ltv_ppm} ppm daily ${p.daily_rate_ppm} ppm ${p.max_days} days${p.active === 1n ? '' : ' (inactive)'}`)
      }
      const open = (await sql.get(LISTED.openLoans))!
      env.io.out(`open loans ${open.n}, owing ${formatMoney(open.debt)} USDT`)
      return 0
    },
  },
]
