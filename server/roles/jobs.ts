// The background jobs, started from one list: by `--role all` with everything else, and by the jobs
// role while it leads the jobs election (server/roles/jobsProcess.ts). Each of them keeps its money
// right by itself (ledger refs, settled days, claimed rows), so a pass cut short by a crash is redone
// by the next start or the next leader without paying twice; the election only keeps two processes
// from running them at the same time.
//
// Not here: what pushes to this process's own sockets (user@withdraw, the live ranking) — those run
// wherever sockets are served.

import type { Ctx } from '../context.ts'
import { createWithdrawSender } from '../chain/withdrawSender.ts'
import { startDepositWatcher } from '../chain/depositWatcher.ts'
import { cleanup } from '../jobs/cleanup.ts'
import { startJobs } from '../jobs/scheduler.ts'
import { startActivityPayouts } from '../modules/activity/payout.ts'
import { startGoldWalk } from '../modules/goods/goldWalk.ts'
import { startOrderExpiry } from '../modules/orders/service.ts'
import { startPaymentChecker } from '../modules/payment/index.ts'
import { startDemoShipping } from '../modules/preOrder/demoShipping.ts'
import { startReceiptJob } from '../modules/preOrder/service.ts'
import { startReleaseJob } from '../modules/release/service.ts'
import { startSettlement } from '../modules/settlement/service.ts'
import type { UploadService } from '../modules/upload/service.ts'

type Stop = () => void | Promise<void>

/** What the jobs need beyond the context. */
export interface JobsDeps {
  uploads: Pick<UploadService, 'sweep'>
}

/**
 * Starts every background job, in order; the answer stops them in the reverse order, each stop awaited
 * (the deposit watcher, the payment checker and the withdrawal sender wait for a pass in flight).
 */
export function startJobsOf(ctx: Ctx, deps: JobsDeps): () => Promise<void> {
  const { config } = ctx
  const starts: (() => Stop)[] = [
    () => startJobs(ctx, [{ name: 'cleanup', everyMs: 10 * 60_000, run: cleanup }]),
    // Upload URLs that expired unused, and files no application took, are dropped.
    () => startJobs(ctx, [{ name: 'uploads', everyMs: 10 * 60_000, run: () => deps.uploads.sweep() }]),
    // Deposits (server/chain/depositWatcher.ts): a pass every second on dev chains.
    () => startDepositWatcher(ctx),
    // On-chain payments (server/payment): verified and confirmed by a pass every second on dev chains.
    () => startPaymentChecker(ctx),
    // Unpaid orders are cancelled once their time is up (SPEC §4).
    () => startOrderExpiry(ctx),
    // Shipped orders confirm their receipt after the configured days; releases post each due day once.
    () => startReceiptJob(ctx),
    // The demo ships its own paid orders after a short delay (never in production: the operator ships).
    () => startDemoShipping(ctx),
    () => startReleaseJob(ctx, config.commerce.releasePollMs),
    // The daily settlement (DESIGN §11): every position's earnings of each ended UTC day, once.
    () => startSettlement(ctx, config.commerce.releasePollMs),
    // Activities (issue 12 part 4): prizes paid once a window has closed.
    () => startActivityPayouts(ctx, config.commerce.releasePollMs),
    // Withdrawals (server/chain/withdrawSender.ts): sends approved ones and follows them to their
    // confirmations; made anew for each start, so a new leader's sender begins from the table alone.
    () => {
      const sender = createWithdrawSender(ctx, config.withdraw)
      const stop = startJobs(ctx, [sender.job])
      return async () => {
        stop()
        await sender.idle()
      }
    },
    // The demo's gold price walk.
    () => (config.commerce.demoCatalog ? startGoldWalk(ctx) : () => {}),
  ]
  const stops: Stop[] = []
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop()
  }
  try {
    for (const start of starts) stops.push(start())
  } catch (err) {
    // Half started is not started: what did start stops again, and the caller hears why.
    void stopAll().catch((e: unknown) => ctx.log.error({ err: e }, 'stopping the jobs failed'))
    throw err
  }
  return stopAll
}
