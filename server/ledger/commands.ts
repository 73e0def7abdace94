// The operator's `audit` (server/cli.ts lists it): the ledger's invariants, then what each feature that
// pays from the ledger checks against it (the settled days, the ranking pools, the node grants).
// Read only: it runs beside a live server.
import type { Command } from '../commands/registry.ts'
import { json, onlyFlags } from '../commands/args.ts'
import { describeDatabase } from '../db/connection.ts'
import { auditNodeGrants } from '../modules/node/service.ts'
import { auditRanking } from '../modules/ranking/service.ts'
import { auditSettlement, isoDay } from '../modules/settlement/service.ts'
import { audit, formatAudit } from './index.ts'
// Every feature that holds frozen funds, so the audit checks against the complete list.
import './holders.ts'

export const AUDIT_COMMANDS: Command[] = [
  {
    words: ['audit'],
    args: '[--json]',
    summary: 'check the ledger: per asset everything sums to 0, no negative balance outside custody, balances equal their entries, every posting balances, frozen equals what is held',
    async run(args, env) {
      onlyFlags('audit', args, ['--json'])
      const { sql } = env.database()
      // One snapshot for all four, so the features' checks read the very books the ledger's audit did.
      const { report, settlement, ranking, nodeGrants } = await sql.transaction(
        async (tx) => ({ report: await audit(tx), settlement: await auditSettlement(tx), ranking: await auditRanking(tx), nodeGrants: await auditNodeGrants(tx) }),
        { snapshot: true },
      )
      if (args.includes('--json')) env.io.out(json({ ...report, settlement, ranking, nodeGrants }))
      else {
        env.io.out(`database: ${describeDatabase(env.config.database)}\n${formatAudit(report)}`)
        env.io.out(settlement.length === 0 ? 'settlement: every settled day paid + dust = computed, and the funding accounts paid exactly that' : `settlement: ${settlement.length} problems`)
        for (const v of settlement) env.io.out(`  [settlement] ${isoDay(v.day)} ${v.kind} ${v.asset}: ${v.message}`)
        env.io.out(ranking.length === 0 ? 'ranking: every pool fed and every payout paid as the ledger moved it' : `ranking: ${ranking.length} problems`)
        for (const v of ranking) env.io.out(`  [ranking] ${isoDay(v.day)} ${v.what} ${v.asset}: ${v.message}`)
        env.io.out(nodeGrants.length === 0 ? 'node grants: every fee share and dividend day paid + dust = pool, as the ledger moved it' : `node grants: ${nodeGrants.length} problems`)
        for (const v of nodeGrants) env.io.out(`  [node ${v.grant}] ${isoDay(v.day)} ${v.asset}: ${v.message}`)
      }
      return report.ok && settlement.length === 0 && ranking.length === 0 && nodeGrants.length === 0 ? 0 : 1
    },
  },
]
