// The operator's savings (pledge) commands (server/cli.ts lists them): the products are loaded from a
// file (./productFile.ts) and listed with what is pledged in each.
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { readJsonFile, unlessRefused, UsageError } from '../../commands/args.ts'
import { statement } from '../../db/query/types.ts'
import { PledgeFileInvalid, checkPledgeFile, loadPledgeProducts } from './productFile.ts'

type Listed = { id: bigint; slug: string; day: bigint; min_pledge: bigint; day_rate_ppm: bigint; month_rate_ppm: bigint; total_pledge: bigint; pledged: bigint; active: bigint }
const LIST = statement<Listed, []>('SELECT id, slug, day, min_pledge, day_rate_ppm, month_rate_ppm, total_pledge, pledged, active FROM pledge_products ORDER BY sort, id')

export const PLEDGE_COMMANDS: Command[] = [
  {
    words: ['pledge', 'load'],
    args: '<file.json>',
    writes: true,
    needs: 'database',
    summary: 'load savings (pledge) products from a file (slugs are keys: a product is updated, a new one added, none deleted; new terms apply to new pledges)',
    async run(args, env) {
      if (args.length !== 1) throw new UsageError('usage: pledge load <file.json>')
      return unlessRefused(env, 'pledge load', [PledgeFileInvalid, SyntaxError], async () => {
        const file = checkPledgeFile(readJsonFile(args[0]!))
        const { sql } = env.database()
        const sum = await sql.transaction((tx) => loadPledgeProducts(tx, file, Date.now()))
        env.io.out(`pledge products loaded: ${sum.added} added, ${sum.updated} updated`)
        return 0
      })
    },
  },
  {
    words: ['pledge', 'list'],
    args: '',
    summary: 'the savings products: term, minimum, day and month rates (ppm), capacity, pledged, active',
    async run(_args, env) {
      const rows = await env.database().sql.all(LIST)
      for (const r of rows) {
        env.io.out(
          `${r.id} ${r.slug} ${r.day} days min ${formatMoney(r.min_pledge)} day ${r.day_rate_ppm} ppm month ${r.month_rate_ppm} ppm pledged ${formatMoney(r.pledged)}/${formatMoney(r.total_pledge)}${r.active === 1n ? '' : ' (inactive)'}`,
        )
      }
      return 0
    },
  },
]
