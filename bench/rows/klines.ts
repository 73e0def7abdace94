import type { BenchContext, Row } from '../support/types.ts'
export const id = 'klines'
export async function run(_ctx: BenchContext): Promise<Row[]> {
  return []
}
