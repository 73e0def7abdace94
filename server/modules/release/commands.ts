// The operator's release commands (server/cli.ts lists them): what the release job has posted and what
// is due, posting due days now, and funding the release account that pays them.
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { onlyFlags, positiveAmount, unlessRefused, UsageError } from '../../commands/args.ts'
import * as ledger from '../../ledger/index.ts'
import { statement, statements } from '../../db/query/types.ts'
import { fundFromTreasury } from '../settlement/commands.ts'
import { dayOf, dayStart } from './schedule.ts'
import { ReleaseFundingShort, releaseDue } from './service.ts'

const STATUS = statements({
  last: statement<{ day: bigint; plans: bigint; users: bigint; total: bigint; posted_at: bigint }, []>('SELECT * FROM release_days ORDER BY day DESC LIMIT 1'),
  open: statement<{ n: bigint; next: bigint | null }, []>("SELECT count(*) AS n, min(start_day + released_days) AS next FROM release_plans WHERE status = 'releasing'"),
})

export const RELEASE_COMMANDS: Command[] = [
  {
    words: ['release', 'status'],
    args: '',
    summary: 'the release job: last day posted, plans still releasing, the next due day and what it needs, the release account',
    async run(args, env) {
      onlyFlags('release status', args)
      const { sql } = env.database()
      const last = await sql.get(STATUS.last)
      const open = (await sql.get(STATUS.open))!
      const fundNadi = (await ledger.balance(sql, ledger.RELEASES, 'NADI')).available
      const day = (d: bigint | number) => new Date(dayStart(Number(d))).toISOString().slice(0, 10)
      env.io.out(
        [
          `last day posted: ${last ? `${day(last.day)} (${last.plans} plans, ${last.users} users, ${formatMoney(last.total)} NADI, at ${new Date(Number(last.posted_at)).toISOString()})` : 'none'}`,
          `plans releasing: ${open.n}${open.next !== null ? `; next due day ${day(open.next)}${Number(open.next) <= dayOf(Date.now()) ? ' (due now)' : ''}` : ''}`,
          `release account: ${formatMoney(fundNadi)} NADI`,
        ].join('\n'),
      )
      return 0
    },
  },
  {
    words: ['release', 'run'],
    args: '',
    writes: true,
    needs: 'jobs',
    summary: 'post every due release day now, oldest first (the server\'s job does this every minute)',
    async run(args, env) {
      onlyFlags('release run', args)
      const log = { error: () => {} } as unknown as Parameters<typeof releaseDue>[0]['log'] // the refusal is printed below
      return unlessRefused(
        env,
        'release run',
        [ReleaseFundingShort],
        async () => {
          const days = await releaseDue({ ...env.database(), now: Date.now, log })
          if (days.length === 0) env.io.out('nothing due')
          for (const d of days) env.io.out(`${new Date(dayStart(d.day)).toISOString().slice(0, 10)}: ${d.plans} instalments to ${d.users} users, ${formatMoney(d.total)} NADI`)
          return 0
        },
        (message) => `halted: ${message}; fund it with \`release fund <NADI>\``,
      )
    },
  },
  {
    words: ['release', 'fund'],
    args: '<NADI>',
    writes: true,
    needs: 'database',
    summary: 'move NADI from the treasury to the release account that pays the releases (the same as `fund releases NADI <amount>`)',
    async run(args, env) {
      const amount = args.length === 1 ? positiveAmount(args[0]!) : null
      if (amount === null) throw new UsageError('usage: release fund <NADI amount>')
      return fundFromTreasury({ name: 'releases', asset: 'NADI', amount }, env, 'release fund')
    },
  },
]
