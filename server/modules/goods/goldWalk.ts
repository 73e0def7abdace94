// The demo's gold price: a random walk around the configured reference, a step every
// NADI_GOLD_WALK_MS, so the mall's prices and its chart move as a real reference would. Production
// records prices with `tsx server/cli.ts gold price <usdt per gram>` (or a feed calling recordGoldPrice).
import type { Ctx } from '../../context.ts'
import { statement } from '../../db/query/types.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import { readGoldPrice, recordGoldPrice } from './service.ts'

/** One step: ±0.05 % at most, pulled gently back towards the reference so it never drifts away. Pure but for `random`. */
export function nextGoldPrice(price: bigint, reference: bigint, random: () => number): bigint {
  const drift = Number(reference - price) / Number(reference) / 50
  const step = (random() - 0.5) * 0.001 + drift * 0.001
  const next = BigInt(Math.round(Number(price) * (1 + step)))
  return next > 0n ? next : price
}

const ANY_PRICE = statement<{ one: bigint }, []>('SELECT 1 AS one FROM gold_prices LIMIT 1')

/** A day of history the first time, so the mall's chart has shape at once; then a step per tick. */
export async function seedGoldHistory(ctx: Ctx, random = Math.random): Promise<void> {
  if (await ctx.sql.get(ANY_PRICE)) return
  const now = ctx.now()
  const step = 15 * 60_000
  await ctx.sql.transaction(async (tx) => {
    let p = ctx.config.commerce.goldPrice
    for (let at = now - 86_400_000; at <= now; at += step) {
      await recordGoldPrice(ctx, tx, at, p)
      for (let i = 0; i < 15; i++) p = nextGoldPrice(p, ctx.config.commerce.goldPrice, random)
    }
  })
}

export function startGoldWalk(ctx: Ctx): () => void {
  const everyMs = ctx.config.commerce.goldWalkMs
  if (everyMs <= 0) return () => {}
  return startJobs(ctx, [
    {
      name: 'gold-walk',
      everyMs,
      run: (c) =>
        c.sql.transaction(async (tx) => {
          const reference = c.config.commerce.goldPrice
          await recordGoldPrice(c, tx, c.now(), nextGoldPrice(await readGoldPrice(tx, reference), reference, Math.random))
        }),
    },
  ])
}
