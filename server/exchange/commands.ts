// The operator's market commands (server/cli.ts lists them): a halted market is looked at
// (`market check`, read only) and its book rebuilt from its open orders and the ledger (`market repair`,
// see ./repair.ts), which brings trading back.
import type { Command } from '../commands/registry.ts'
import { json, onlyFlags } from '../commands/args.ts'
import { describeDatabase } from '../db/connection.ts'
import { defaultSpec } from './engine/index.ts'
import { diagnose, formatDiagnosis, formatPlan } from './repairStore.ts'

export const MARKET_COMMANDS: Command[] = [
  {
    words: ['market', 'check'],
    args: '[--json]',
    summary: 'report the market: whether its journal replays (and where it stops), orders and frozen funds that disagree, what a repair would do; exit 1 when it needs one',
    async run(args, env) {
      onlyFlags('market check', args, ['--json'])
      const database = env.database()
      // One read transaction (inside a server: a turn of its market's writer), so no commit lands between the reads.
      const d = env.inServer ? await (await env.market()).diagnose() : await database.sql.transaction((tx) => diagnose(tx, defaultSpec))
      env.io.out(args.includes('--json') ? json(d) : `database: ${describeDatabase(env.config.database)}\n${formatDiagnosis(d)}`)
      return d.healthy ? 0 : 1
    },
  },
  {
    words: ['market', 'repair'],
    args: '',
    summary: 'rebuild the market\'s book from its open orders and the ledger (cancelling orders that cannot stand, releasing funds no order holds), print what was done, resume trading',
    writes: true,
    async run(args, env) {
      onlyFlags('market repair', args)
      const market = await env.market()
      const before = market.status()
      const detail = market.faultDetail
      const record = await market.repair()
      if (!record) {
        env.io.out(`market ${market.spec.instId} is live and consistent: nothing to repair`)
        return 0
      }
      const lines = [
        `market ${market.spec.instId} repaired (repair #${record.repairId}, book as of journal row ${record.journalSeq})`,
        `  it was ${before.state}${detail ? `: ${detail}` : ''}`,
        ...formatPlan(record.plan, 'done'),
        `  now: ${market.status().state}`,
      ]
      env.io.out(lines.join('\n'))
      return market.status().state === 'live' ? 0 : 1
    },
  },
]
