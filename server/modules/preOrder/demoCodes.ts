// The activation codes the demo shipped with a device order (server/modules/preOrder/demoShipping.ts).
// A real order carries them in the box and the server keeps only their hashes; the demo has no box, so
// it keeps them in clear for the buyer's order detail, and only while the demo ships by itself.
import type { Ctx } from '../../context.ts'
import { statement, type Queryable, type Tx } from '../../db/query/types.ts'
import type { IssuedCode } from '../device/service.ts'

const SQL = {
  keep: 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  codes: 'SELECT value FROM settings WHERE key = ?',
} as const

const keyOf = (orderId: number) => `demo-codes:${orderId}`

/** Inside the shipping's transaction. */
export async function keepDemoCodes(tx: Tx, orderId: number, codes: IssuedCode[]): Promise<void> {
  if (codes.length > 0) await tx.run(KEEP, keyOf(orderId), JSON.stringify(codes))
}

const KEEP = statement<never, [key: string, value: string]>(SQL.keep)
const CODES = statement<{ value: string }, [key: string]>(SQL.codes)

/** The codes the demo shipped with this order, read through `q`; none outside the demo (or in production). */
export async function demoCodesOf(ctx: Pick<Ctx, 'config'>, q: Queryable, orderId: number): Promise<IssuedCode[]> {
  if (ctx.config.commerce.demoShipAfterMs === null) return []
  const row = await q.get(CODES, keyOf(orderId))
  return row ? (JSON.parse(row.value) as IssuedCode[]) : []
}
