// The operator's activity commands, listed in server/cli.ts:
//
//   activity load <file.json>     add or update activities by slug (./activityFile.ts); a bad file writes nothing
//   activity list [--json]        every activity: status, window, measure, prizes, payout state
//   activity status <slug>        one activity: window, prizes against the prize account, the live top 10,
//                                 and its payout (paid ranks, or why it halted)
//   activity fund <asset> <amount>  move funds from the treasury to the activity prize account
//   activity pay                  pay every activity whose window has closed now (the server's job does it every minute)
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { positiveAmount, readJsonFile, unlessRefused } from '../../commands/args.ts'
import { statement, statements } from '../../db/query/types.ts'
import * as ledger from '../../ledger/index.ts'
import { formatMoney } from '../../../contract/money.ts'
import { MEASURE_UNIT } from '../../../contract/activity.ts'
import { ActivityFileInvalid, checkActivityFile, loadActivities, readStoredPrizes } from './activityFile.ts'
import { payDueActivities, SETTLE_GRACE_MS } from './payout.ts'
import { prizeTotals, statusAt, type PrizeRange } from './rules.ts'
import { readParticipants, readTopScores } from './scores.ts'
import { pickText, scoreText, type ActivityRow } from './service.ts'

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString().replace('.000Z', 'Z')
const prizeLine = (p: PrizeRange[]) => p.map((r) => `${r.from === r.to ? `#${r.from}` : `#${r.from}-${r.to}`} ${formatMoney(r.amount)} ${r.asset}`).join(', ')
const usage = (env: CommandEnv, text: string) => {
  env.io.err(text)
  return 2
}

const READ = statements({
  all: statement<ActivityRow, []>('SELECT * FROM activities ORDER BY starts_at, id'),
  bySlug: statement<ActivityRow, [{ slug: string }]>('SELECT * FROM activities WHERE slug = @slug'),
  winners: statement<{ rank: bigint; user_id: bigint; score: bigint; asset: string; amount: bigint; paid_at: bigint }, [{ id: bigint }]>(
    'SELECT rank, user_id, score, asset, amount, paid_at FROM activity_winners WHERE activity_id = @id ORDER BY rank',
  ),
})

function byStatus(r: ActivityRow, now: number): string {
  const s = statusAt(Number(r.starts_at), Number(r.ends_at), now)
  if (r.settled_at !== null) return `${s}, paid ${iso(r.settled_at)}`
  if (r.halted) return `${s}, payout HALTED`
  if (s === 'ended') return `${s}, payout due${Number(r.ends_at) + SETTLE_GRACE_MS > now ? ' shortly' : ''}`
  return s
}

export const ACTIVITY_COMMANDS: Command[] = [
  {
    words: ['activity', 'load'],
    args: '<file.json>',
    writes: true,
    needs: 'database',
    summary: 'add or update activities from a file (slugs are keys; once an activity runs its measure, prizes and start stay; a bad file writes nothing)',
    async run(args, env) {
      if (args.length !== 1) return usage(env, 'usage: activity load <file.json>')
      return unlessRefused(env, 'activity load', [ActivityFileInvalid, SyntaxError], async () => {
        const list = checkActivityFile(readJsonFile(args[0]!))
        const db = env.database()
        const sum = await db.sql.transaction((tx) => loadActivities(tx, list, Date.now()))
        env.io.out(`activities loaded: ${sum.added} added, ${sum.updated} updated`)
        return 0
      })
    },
  },
  {
    words: ['activity', 'list'],
    args: '[--json]',
    summary: 'every activity: id, slug, status, window, measure, prizes and payout state',
    async run(args, env) {
      if (args.some((a) => a !== '--json')) return usage(env, 'usage: activity list [--json]')
      const { sql } = env.database()
      const now = Date.now()
      const rows = await sql.all(READ.all)
      const prizesOf = new Map<bigint, PrizeRange[]>()
      for (const r of rows) prizesOf.set(r.id, await readStoredPrizes(sql, r.id))
      if (args.includes('--json')) {
        const list = rows.map((r) => ({
          id: Number(r.id),
          slug: r.slug,
          title: pickText(r.title, 'EN'),
          status: statusAt(Number(r.starts_at), Number(r.ends_at), now),
          measure: r.measure,
          starts_at: iso(r.starts_at),
          ends_at: iso(r.ends_at),
          active: r.active === 1n,
          settled_at: r.settled_at === null ? null : iso(r.settled_at),
          halted: r.halted,
          prizes: prizesOf.get(r.id)!.map((p) => ({ ...p, amount: formatMoney(p.amount) })),
        }))
        env.io.out(JSON.stringify(list, null, 2))
        return 0
      }
      if (rows.length === 0) env.io.out('no activities')
      for (const r of rows) {
        env.io.out(
          `#${r.id} ${r.slug} [${byStatus(r, now)}]${r.active === 1n ? '' : ' (inactive)'} ${r.measure} ${iso(r.starts_at)} → ${iso(r.ends_at)}  prizes ${prizeLine(prizesOf.get(r.id)!)}`,
        )
      }
      return 0
    },
  },
  {
    words: ['activity', 'status'],
    args: '<slug>',
    summary: 'one activity: window and status, prizes against the prize account, the leaderboard top 10, and its payout (paid ranks, or why it halted)',
    async run(args, env) {
      if (args.length !== 1) return usage(env, 'usage: activity status <slug>')
      const { sql } = env.database()
      const now = Date.now()
      const r = await sql.get(READ.bySlug, { slug: args[0]! })
      if (!r) {
        env.io.err(`activity status: no activity ${args[0]}`)
        return 1
      }
      const prizes = await readStoredPrizes(sql, r.id)
      const lines = [
        `#${r.id} ${r.slug} "${pickText(r.title, 'EN')}"${r.active === 1n ? '' : ' (inactive: not shown, not paid)'}`,
        `status: ${byStatus(r, now)}`,
        `window: ${iso(r.starts_at)} → ${iso(r.ends_at)}; measure ${r.measure} (${MEASURE_UNIT[r.measure]})`,
        `prizes: ${prizeLine(prizes)}`,
      ]
      for (const [asset, total] of prizeTotals(prizes)) {
        lines.push(`  ${asset}: ${formatMoney(total)} if every rank wins; the activity prize account holds ${formatMoney((await ledger.balance(sql, ledger.ACTIVITY_PRIZES, asset)).available)}`)
      }
      if (r.halted) lines.push(`payout HALTED: ${r.halted}`, '  fund the account with `activity fund <asset> <amount>`; the next pass (or `activity pay`) pays it')
      const winners = await sql.all(READ.winners, { id: r.id })
      if (r.settled_at !== null) {
        const ranks = prizes.length ? prizes[prizes.length - 1]!.to : 0
        lines.push(`paid ${iso(r.settled_at)}: ${winners.length} of ${ranks} prize ranks had a winner`)
        for (const w of winners) lines.push(`  #${w.rank} user ${w.user_id} score ${scoreText(r.measure, w.score)} → ${formatMoney(w.amount)} ${w.asset} (ref activity:${r.id}:rank:${w.rank})`)
      } else if (statusAt(Number(r.starts_at), Number(r.ends_at), now) !== 'upcoming') {
        lines.push(`participants: ${await readParticipants(sql, Number(r.id))}; top 10:`)
        for (const [i, s] of (await readTopScores(sql, Number(r.id), 10)).entries()) lines.push(`  #${i + 1} user ${s.userId} ${s.name} ${scoreText(r.measure, s.score)} (reached ${iso(s.reachedAt)})`)
      }
      env.io.out(lines.join('\n'))
      return r.halted ? 1 : 0
    },
  },
  {
    words: ['activity', 'fund'],
    args: '<asset> <amount>',
    writes: true,
    needs: 'database',
    summary: 'move funds from the treasury to the activity prize account that pays the prizes',
    async run(args, env) {
      const asset = args[0]?.toUpperCase() ?? ''
      const amount = args.length === 2 ? positiveAmount(args[1]!) : null
      if (!ledger.isAsset(asset) || amount === null) return usage(env, `usage: activity fund <${ledger.ASSETS.join('|')}> <amount>`)
      const db = env.database()
      const now = Date.now()
      try {
        await db.sql.transaction((tx) =>
          ledger.transfer(tx, { ref: `activity_fund:${now}:${asset}:${amount}`, reason: 'activity_fund', userId: null, from: ledger.TREASURY, to: ledger.ACTIVITY_PRIZES, asset, amount, at: now }),
        )
      } catch (err) {
        if (!(err instanceof ledger.InsufficientFunds)) throw err
        env.io.err(`activity fund: the treasury has ${formatMoney(err.current)} ${asset}, ${formatMoney(amount)} asked`)
        return 1
      }
      env.io.out(`activity prize account: ${formatMoney((await ledger.balance(db.sql, ledger.ACTIVITY_PRIZES, asset)).available)} ${asset}`)
      return 0
    },
  },
  {
    words: ['activity', 'pay'],
    args: '',
    writes: true,
    needs: 'jobs',
    summary: 'pay the prizes of every activity whose window closed (the server\'s job does this every minute); a short prize account halts that activity, visibly',
    async run(args, env) {
      if (args.length) return usage(env, 'usage: activity pay')
      const log = { error: () => {} } as unknown as Parameters<typeof payDueActivities>[0]['log'] // the halt is printed below
      const done = await payDueActivities({ ...env.database(), now: Date.now, log })
      if (done.length === 0) env.io.out('nothing due')
      for (const d of done) {
        if (d.halted) env.io.err(`${d.slug}: halted: ${d.halted}; fund it with \`activity fund <asset> <amount>\``)
        else env.io.out(`${d.slug}: ${d.paid.length} prizes paid${d.paid.length ? `: ${d.paid.map((p) => `#${p.rank} user ${p.userId} ${formatMoney(p.amount)} ${p.asset}`).join(', ')}` : ''}`)
      }
      return done.some((d) => d.halted) ? 1 : 0
    },
  },
]
