// The demo's savings products (demo mode): the three terms of ./demoProducts.json, loaded once.
import fs from 'node:fs'
import path from 'node:path'
import type { Ctx } from '../../context.ts'
import { statement } from '../../db/query/types.ts'
import { checkPledgeFile, loadPledgeProducts } from './productFile.ts'

export const DEMO_PLEDGE_FILE = path.resolve(import.meta.dirname, 'demoProducts.json')

const ANY = statement<{ one: bigint }, []>('SELECT 1 AS one FROM pledge_products LIMIT 1')

export async function seedDemoPledge(ctx: Pick<Ctx, 'sql' | 'now'>): Promise<void> {
  if (await ctx.sql.get(ANY)) return
  const file = checkPledgeFile(JSON.parse(fs.readFileSync(DEMO_PLEDGE_FILE, 'utf8')))
  await ctx.sql.transaction((tx) => loadPledgeProducts(tx, file, ctx.now()))
}
