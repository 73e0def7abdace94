// The demo's two activities (demo mode): ./demoActivities.json, loaded once, with their windows moved
// to the start of the demo so one is running and one is upcoming whenever the demo is started. The
// demo also funds the activity prize account (an operator does it with `activity fund`).
import fs from 'node:fs'
import path from 'node:path'
import type { Ctx } from '../../context.ts'
import { statement } from '../../db/query/types.ts'
import * as ledger from '../../ledger/index.ts'
import { checkActivityFile, loadActivities } from './activityFile.ts'

export const DEMO_ACTIVITY_FILE = path.resolve(import.meta.dirname, 'demoActivities.json')
const DAY = 86_400_000
/** Days from the demo's start: [start, end]. Long enough that the running one outlives any demo session. */
const DEMO_WINDOWS: Record<string, [number, number]> = { 'device-sprint': [-1, 60], 'trading-cup': [3, 17] }
/** What the demo puts in the activity prize account: more than both demo prize tables together. */
const DEMO_PRIZE_FUND = 100_000n * 100_000_000n

const ANY_ACTIVITY = statement<{ one: bigint }, []>('SELECT 1 AS one FROM activities LIMIT 1')

export async function seedDemoActivities(ctx: Ctx): Promise<void> {
  if (await ctx.sql.get(ANY_ACTIVITY)) return
  const now = ctx.now()
  const json = JSON.parse(fs.readFileSync(DEMO_ACTIVITY_FILE, 'utf8')) as { activities: { slug: string; starts_at: string; ends_at: string }[] }
  for (const a of json.activities) {
    const w = DEMO_WINDOWS[a.slug]
    if (!w) continue
    a.starts_at = new Date(now + w[0] * DAY).toISOString()
    a.ends_at = new Date(now + w[1] * DAY).toISOString()
  }
  const list = checkActivityFile(json)
  await ctx.sql.transaction(async (tx) => {
    await loadActivities(tx, list, now)
    const ref = 'demo:activity_prizes:NADI'
    if (!(await ledger.findPosting(tx, ref))) {
      await ledger.transfer(tx, { ref, reason: 'activity_fund', userId: null, from: ledger.custody('nadi'), to: ledger.ACTIVITY_PRIZES, asset: 'NADI', amount: DEMO_PRIZE_FUND, at: now })
    }
  })
}
