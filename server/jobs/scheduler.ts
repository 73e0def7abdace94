import type { Ctx } from '../context.ts'

export interface Job {
  name: string
  everyMs: number
  run(ctx: Ctx): Promise<unknown>
}

/** Runs each job on its interval, one run at a time per job; a failure is logged and retried next tick. */
export function startJobs(ctx: Ctx, jobs: Job[]): () => void {
  const timers = jobs.map((job) => {
    let running = false
    const timer = setInterval(async () => {
      if (running) return
      running = true
      try {
        await job.run(ctx)
      } catch (err) {
        ctx.log.error({ err, job: job.name }, 'job failed')
      } finally {
        running = false
      }
    }, job.everyMs)
    timer.unref()
    return timer
  })
  return () => timers.forEach(clearInterval)
}
