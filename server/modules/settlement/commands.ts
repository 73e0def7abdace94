// The operator's view of the daily settlement (DESIGN §11): each settled day is a visible record —
// when it ran, how many positions and users, and per kind and asset what was computed, paid and left
// as dust — beside the next day due and what the funding accounts hold. Read only: a day is settled by
// the server's job, whose feature steps (node fee shares, ranking prizes) are registered in the server.
// `fund` moves money from the treasury to the platform accounts that pay users (./funding.ts).
import crypto from 'node:crypto'
import { formatMoney } from '../../../contract/money.ts'
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { UsageError } from '../../commands/args.ts'
import { statement, statements } from '../../db/query/types.ts'
import * as ledger from '../../ledger/index.ts'
import { dayOf } from '../release/schedule.ts'
import { describeFunded, fundAccount, parseFund, type FundRequest } from './funding.ts'
import { FUNDED_BY, isoDay, nextDay } from './service.ts'

const DAYS_DEFAULT = 7
const DAYS_MAX = 366

interface DayRow {
  day: bigint
  positions: bigint
  users: bigint
  started_at: bigint
  finished_at: bigint
}
interface TotalRow {
  day: bigint
  kind: string
  asset: string
  lines: bigint
  computed: bigint
  paid: bigint
  dust: bigint
}

/** `--days N` (1…366), or the default; null when the words are wrong. */
export function parseStatusArgs(args: readonly string[]): number | null {
  if (args.length === 0) return DAYS_DEFAULT
  if (args.length !== 2 || args[0] !== '--days' || !/^[1-9]\d{0,2}$/.test(args[1]!)) return null
  const n = Number(args[1])
  return n <= DAYS_MAX ? n : null
}

const STATUS = statements({
  days: statement<DayRow, [{ days: number }]>('SELECT * FROM settlement_days ORDER BY day DESC LIMIT @days'),
  totals: statement<TotalRow, [{ from: bigint; to: bigint }]>('SELECT * FROM settlement_totals WHERE day BETWEEN @from AND @to ORDER BY day DESC, kind, asset'),
})

export const SETTLEMENT_COMMANDS: Command[] = [
  {
    words: ['settlement', 'status'],
    args: '[--days N]',
    summary: 'the daily settlement: the last N settled days (positions, users, computed / paid / dust per kind and asset, when), the next day due, the funding accounts',
    async run(args, env) {
      const days = parseStatusArgs(args)
      if (days === null) {
        env.io.err(`usage: settlement status [--days 1…${DAYS_MAX}]`)
        return 2
      }
      const { sql } = env.database()
      const settled = await sql.all(STATUS.days, { days })
      const totals = settled.length ? await sql.all(STATUS.totals, { from: settled.at(-1)!.day, to: settled[0]!.day }) : []
      if (settled.length === 0) env.io.out('no day settled yet')
      for (const d of settled) {
        const secs = (Number(d.finished_at - d.started_at) / 1000).toFixed(1)
        env.io.out(`${isoDay(Number(d.day))}: ${d.positions} positions, ${d.users} users paid, settled ${new Date(Number(d.finished_at)).toISOString()} (${secs} s)`)
        for (const t of totals.filter((x) => x.day === d.day)) {
          env.io.out(`  ${t.kind.padEnd(8)} ${t.asset.padEnd(5)} ${String(t.lines).padStart(9)} lines  computed ${formatMoney(t.computed)}  paid ${formatMoney(t.paid)}  dust ${formatMoney(t.dust)}`)
        }
      }
      const next = await nextDay({ sql })
      const lastEnded = dayOf(Date.now()) - 1
      env.io.out(next === null ? 'next day: nothing to settle' : `next day: ${isoDay(next)}${next <= lastEnded ? ` — due now (${lastEnded - next + 1} days behind; the server's job settles them in order)` : ' — not ended yet'}`)
      const funding = new Map<string, ledger.AccountRef>()
      for (const a of Object.values(FUNDED_BY)) if ('platform' in a) funding.set(a.platform, a)
      for (const [name, account] of funding) {
        const held: string[] = []
        for (const asset of ledger.COINS) held.push(`${formatMoney((await ledger.balance(sql, account, asset)).available)} ${asset}`)
        env.io.out(`${name} account: ${held.join(', ')}`)
      }
      return 0
    },
  },
]

export const FUND_COMMANDS: Command[] = [
  {
    words: ['fund'],
    args: '<account> <asset> <amount>',
    writes: true,
    needs: 'database',
    summary: 'move money from the treasury to a platform account that pays users — mining NADI, savings NADI, releases NADI, loans USDT — and print both balances',
    run(args, env) {
      const req = parseFund(args)
      if ('problem' in req) throw new UsageError(req.problem)
      return fundFromTreasury(req, env, 'fund')
    },
  },
]

/** Funds a platform account from the treasury and prints both balances; a short treasury writes nothing. */
export async function fundFromTreasury(req: FundRequest, env: CommandEnv, name: string): Promise<number> {
  const { sql } = env.database()
  try {
    const funded = await sql.transaction((tx) => fundAccount(tx, req, Date.now(), crypto.randomUUID()))
    env.io.out(describeFunded(req, funded))
    return 0
  } catch (err) {
    if (!(err instanceof ledger.InsufficientFunds)) throw err
    env.io.err(`${name}: the treasury has ${formatMoney(err.current)} ${req.asset}, ${formatMoney(req.amount)} asked; nothing was moved`)
    return 1
  }
}
