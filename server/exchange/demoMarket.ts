// Demo mode only (issue 5 part 8): a market-making account quotes a ladder around a random-walk
// price and a second account trades against it now and then, so a newcomer sees a living book and
// chart. Both are platform-run users without a wallet, funded from the demo chains' custody — the
// same double-entry money as everyone else's, visible in the audit.

import { parseMoney } from '../../contract/money.ts'
import type { Ctx } from '../context.ts'
import { statement, statements, type Sql } from '../db/query/types.ts'
import * as ledger from '../ledger/index.ts'
import { lotsOf, ticksOf, type MarketSpec } from './engine/index.ts'
import { listStatement, type ListType } from '../db/query/list.ts'
import { chunks } from './batchWrites.ts'
import { demoMinutes, foldBars } from './demoHistory.ts'
import { TradeRejected, type Exchange } from './exchange.ts'

export interface DemoMarketOptions {
  everyMs: number
  /** Where the walk starts, USDT per NADI ("0.25"). */
  referencePrice: string
  /** Levels per side. */
  levels?: number
  /** Seeded randomness makes a demo reproducible; tests pass their own. */
  random?: () => number
}

const MAKER = { code: 'DEMOMAKER', name: 'Demo market maker' }
const TAKER = { code: 'DEMOTAKER', name: 'Demo trader' }
const FUNDS = { USDT: 5_000_000n * 100_000_000n, NADI: 20_000_000n * 100_000_000n }

const DEMO = statements({
  userByCode: statement<{ id: bigint }, [code: string]>('SELECT id FROM users WHERE code = ?'),
  insertUser: statement<{ id: bigint }, [code: string, name: string, at: number]>('INSERT INTO users (code, name, created_at) VALUES (?, ?, ?) RETURNING id'),
  openOrdersOf: statement<{ id: bigint }, [user: number]>("SELECT id FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled') ORDER BY id"),
})

async function demoUser(ctx: Ctx, who: { code: string; name: string }): Promise<number> {
  return ctx.sql.transaction(async (tx) => {
    const row = (await tx.get(DEMO.userByCode, who.code)) ?? (await tx.get(DEMO.insertUser, who.code, who.name, ctx.now()))
    if (!row) throw new Error(`demo market: the user ${who.code} was neither found nor made`)
    const user = Number(row.id)
    for (const asset of ['USDT', 'NADI'] as const) {
      const ref = `demo:market:${who.code}:${asset}`
      if (await ledger.findPosting(tx, ref)) continue
      await ledger.transfer(tx, { ref, reason: 'demo_fund', from: ledger.custody(asset === 'USDT' ? 'bsc' : 'nadi'), to: ledger.trade(user), asset, amount: FUNDS[asset], at: ctx.now() })
    }
    return user
  })
}

/** Starts the demo market; resolves with a stop function that waits for a move in flight. */
export async function startDemoMarket(ctx: Ctx, exchange: Exchange, opts: DemoMarketOptions): Promise<() => Promise<void>> {
  const spec = exchange.spec
  const random = opts.random ?? Math.random
  const levels = opts.levels ?? 12
  const start = parseMoney(opts.referencePrice)
  const startTicks = start === null ? null : ticksOf(spec, start)
  if (startTicks === null || startTicks < 100) throw new Error(`demo market: reference price "${opts.referencePrice}" is not a usable price`)
  const maker = await demoUser(ctx, MAKER)
  const taker = await demoUser(ctx, TAKER)
  // After a restart (a crash too) the walk goes on from the market's last price, and the ladder the
  // maker left resting is requoted with the next move instead of stranded in the book for good.
  const last = exchange.lastPrice()
  let mid = (last === null ? null : ticksOf(spec, last)) ?? startTicks
  let seq = Date.now()
  const resting: number[] = (await ctx.sql.all(DEMO.openOrdersOf, maker)).map((r) => Number(r.id))
  const clientId = (tag: string) => `demo-${tag}-${(seq++).toString(36)}`
  const lot = (nadi: number) => lotsOf(spec, BigInt(Math.round(nadi * 100)) * 1_000_000n) ?? 1

  async function move(): Promise<void> {
    // A random walk of at most ±0.4 % a step, kept within half and double the reference.
    mid = Math.round(mid * (1 + (random() - 0.5) * 0.008))
    mid = Math.min(Math.max(mid, Math.ceil(startTicks! / 2)), startTicks! * 2)
    const spread = Math.max(1, Math.round(mid * 0.002))
    const step = Math.max(1, Math.round(mid * 0.001))
    // Requote: cancel the old ladder, place a new one.
    const old = resting.splice(0)
    await Promise.allSettled(old.map((id) => exchange.cancel(maker, id)))
    const placing: Promise<unknown>[] = []
    for (let i = 0; i < levels; i++) {
      const size = lot(50 + random() * 950)
      for (const side of ['buy', 'sell'] as const) {
        const price = side === 'buy' ? mid - spread - i * step : mid + spread + i * step
        if (price < 1) continue
        placing.push(
          exchange.place(maker, { side, type: 'limit', price, lots: size, clientOrderId: clientId('q') }).then((o) => {
            if (o.status === 'pending' || o.status === 'partially_filled') resting.push(Number(o.id))
          }),
        )
      }
    }
    await Promise.allSettled(placing)
    // Now and then someone trades: a market order of a few hundred NADI either way.
    if (random() < 0.45) {
      const lots = lot(20 + random() * 400)
      const order =
        random() < 0.5
          ? exchange.place(taker, { side: 'sell', type: 'market', lots, clientOrderId: clientId('t') })
          : exchange.place(taker, { side: 'buy', type: 'market', quote: lots * mid, clientOrderId: clientId('t') })
      await order.catch((e: unknown) => {
        if (!(e instanceof TradeRejected)) throw e
      })
    }
  }

  let stopped = false
  let inFlight: Promise<void> = Promise.resolve()
  const timer = setInterval(() => {
    if (stopped) return
    inFlight = inFlight.then(move).catch((err: unknown) => ctx.log.error({ err }, 'demo market: a move failed'))
  }, opts.everyMs)
  timer.unref()
  inFlight = move().catch((err: unknown) => ctx.log.error({ err }, 'demo market: the first quotes failed'))
  return async () => {
    stopped = true
    clearInterval(timer)
    await inFlight
  }
}

const HISTORY = {
  ...statements({
    used: statement<{ used: bigint }, [candlesOf: string, fillsOf: string]>(
      'SELECT (EXISTS (SELECT 1 FROM trade_candles WHERE inst_id = ?) OR EXISTS (SELECT 1 FROM trade_fills WHERE inst_id = ?)) AS used',
    ),
  }),
  insertHead: 'INSERT INTO trade_candles (inst_id, bar, ts, open, high, low, close, vol, vol_quote)',
  types: ['text', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint'] as ListType[],
  upsertTail:
    ' ON CONFLICT (inst_id, bar, ts) DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, vol = excluded.vol, vol_quote = excluded.vol_quote',
}

/**
 * Demo only, once per data folder: `days` of made-up candles ending now at the reference price
 * (./demoHistory.ts), so the chart has shape on every bar from the first visit. Nothing happens on a
 * folder whose market has candles or trades already. Answers how many candles it stored.
 */
export async function seedDemoHistory(sql: Sql, spec: MarketSpec, o: { now: number; referencePrice: string; days?: number }): Promise<number> {
  const endPrice = parseMoney(o.referencePrice)
  if (endPrice === null || endPrice <= 0n) throw new Error(`demo history: reference price "${o.referencePrice}" is not a usable price`)
  const bars = foldBars(demoMinutes({ spec, end: o.now, endPrice, days: o.days ?? 5, seed: o.now % 2 ** 31 }))
  const rows = [...bars].flatMap(([bar, list]) => list.map((c) => [spec.instId, bar, c.ts, c.open, c.high, c.low, c.close, c.vol, c.volQuote]))
  return sql.transaction(async (tx) => {
    // Checked in the transaction that writes: a start beside another one stores its history once.
    if ((await tx.get(HISTORY.used, spec.instId, spec.instId))?.used) return 0
    // Thousands of candles: written ROWS at a time, not one round trip each.
    for (const part of chunks(rows)) {
      await tx.run(listStatement(HISTORY.insertHead, '(?, ?, ?, ?, ?, ?, ?, ?, ?)', HISTORY.types, part.length, HISTORY.upsertTail), ...part.flat())
    }
    return rows.length
  })
}

