// What a server that answers users writes at start (--role all and api): the root user and its invite
// code, and in demo mode the banners and notices, the treasury, the catalog, the nodes, savings and
// activities. Each seed looks at what is there and adds what is not: right for one process, but several
// api processes started at once on a fresh PostgreSQL database would each find the tables empty (a
// check cannot see rows another session has not committed yet) and seed again — two roots, two
// catalogs, or a unique violation that stops a start. So the seeds run one process at a time, under
// one advisory lock held across all of them: the next process waits its turn, then finds everything
// there and adds nothing.

import type { Ctx } from '../context.ts'
import { seedDemo, seedDemoCatalog } from '../db/seed.ts'
import { seedDemoActivities } from '../modules/activity/seed.ts'
import type { AuthService } from '../modules/auth/service.ts'
import { seedDemoNodes } from '../modules/node/service.ts'
import { seedDemoPledge } from '../modules/pledge/seed.ts'
import { fundDemoTreasury } from '../modules/wallet/service.ts'

/** Beside the migrations' lock (7 411 001, server/db/migrate.ts): one process seeds at a time. */
export const SEED_LOCK = 7_411_002

/**
 * Runs the start's seeds, alone on the database (on SQLite one process writes a data folder anyway);
 * answers the root's invite code.
 */
export async function seedAlone(ctx: Ctx, auth: Pick<AuthService, 'ensureRoot'>): Promise<string> {
  // Before it serves anything: the holder is seeding, briefly.
  return ctx.sql.alone(SEED_LOCK, async () => {
    const rootInviteCode = await auth.ensureRoot()
    const { config } = ctx
    if (config.demo) {
      await seedDemo(ctx)
      await fundDemoTreasury(ctx)
    }
    if (config.commerce.demoCatalog) {
      await seedDemoCatalog(ctx)
      await seedDemoNodes(ctx)
      await seedDemoPledge(ctx)
      await seedDemoActivities(ctx)
    }
    return rootInviteCode
  })
}
