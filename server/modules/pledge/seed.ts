// The demo's savings products (demo mode): the three terms of ./demoProducts.json, loaded once.
import fs from 'node:fs'
import path from 'node:path'
import type { Ctx } from '../../context.ts'
import { atomically } from '../../db/index.ts'
import { checkPledgeFile, loadPledgeProducts } from './productFile.ts'

export const DEMO_PLEDGE_FILE = path.resolve(import.meta.dirname, 'demoProducts.json')

export async function seedDemoPledge(ctx: Ctx): Promise<void> {
  if (ctx.sqlite.prepare('SELECT 1 FROM pledge_products LIMIT 1').get()) return
  const file = checkPledgeFile(JSON.parse(fs.readFileSync(DEMO_PLEDGE_FILE, 'utf8')))
  await atomically(ctx, () => loadPledgeProducts(ctx.sqlite, file, ctx.now()))
}
