// `--role jobs` (issue 19): a process whose work is the background jobs (server/roles/jobs.ts), run only
// while it leads the jobs election (server/roles/leader.ts) — stopped at once when it loses it, started
// again when it wins it back. Any number of these may run on one database; one works, the others stand
// by. Its HTTP answers only a health check, saying whether it leads (the work itself is seen in the
// database: role_leaders, the jobs' own tables).

import { Type } from 'typebox'
import { CODE } from '../../contract/constants.ts'
import { Envelope } from '../../contract/envelope.ts'
import { openServer, type BuildOptions } from '../app.ts'
import type { Ctx } from '../context.ts'
import { statement } from '../db/query/types.ts'
import { defaultSpec } from '../exchange/engine/index.ts'
import { ok } from '../http/reply.ts'
import type { App } from '../http/types.ts'
import { translate } from '../i18n.ts'
import { createUploadService } from '../modules/upload/service.ts'
import { startJobsOf } from './jobs.ts'
import { elect, JOBS_LEADER_KEY, type Election } from './leader.ts'
import { startLivePushes } from './livePushes.ts'
import { busOf } from './pgBus.ts'
import { nadiPriceOf, wireReactions } from './reactions.ts'
import { busPublisher } from '../ws/hub.ts'

const LAST_CANDLE = statement<{ close: bigint }, [instId: string]>("SELECT close FROM trade_candles WHERE inst_id = ? AND bar = '1m' ORDER BY ts DESC LIMIT 1")

export interface JobsBuilt {
  app: App
  ctx: Ctx
  election: Election
}

const JobsHealth = Type.Object({ time: Type.Integer(), role: Type.Literal('jobs'), leading: Type.Boolean() })

export async function buildJobsProcess(opts: BuildOptions): Promise<JobsBuilt> {
  const { config } = opts
  if (config.role !== 'jobs' || config.databaseUrl === null) throw new Error('buildJobsProcess runs --role jobs on PostgreSQL (NADI_DATABASE_URL)')
  const { app, ctx } = await openServer(opts)
  // The engine runs elsewhere: orders paid here are valued at the last price its candles committed.
  // A paid order asks for the price synchronously (inside its transaction), so it is the one read at
  // most a second ago, awaited here on the asynchronous way rather than on the event loop there.
  let last: bigint | null = null
  const readLast = async () => {
    last = (await ctx.sql.get(LAST_CANDLE, defaultSpec.instId))?.close ?? null
  }
  await readLast()
  const refresh = setInterval(() => void readLast().catch((err: unknown) => app.log.error({ err }, 'jobs: reading the last price failed')), 1000)
  refresh.unref()
  app.addHook('onClose', async () => clearInterval(refresh))
  wireReactions(ctx, { nadiPrice: nadiPriceOf(config, () => last) })
  const uploads = await createUploadService(ctx)
  // What the jobs cause reaches the API processes' sockets through the bus (./livePushes.ts).
  const bus = opts.bus ?? busOf(config, app.log)
  const publisher = busPublisher(bus)

  let stopJobs: (() => Promise<void>) | null = null
  const election = elect({
    url: config.databaseUrl,
    name: 'jobs',
    key: JOBS_LEADER_KEY,
    everyMs: config.leaderEveryMs,
    onLead: () => {
      const stop = [startJobsOf(ctx, { uploads }), startLivePushes(ctx, publisher)] as const
      stopJobs = async () => {
        stop[1]()
        await stop[0]()
      }
    },
    onLose: async () => {
      const stop = stopJobs
      stopJobs = null
      await stop?.()
    },
    log: app.log,
  })
  // Before the database and the chains close (onClose): the jobs stop first, then the lock goes.
  app.addHook('preClose', () => election.close())
  app.addHook('onClose', async () => bus.close())

  app.get(
    '/api/v1/common/health',
    { schema: { summary: 'Liveness of a jobs process, and whether it leads the jobs', response: { 200: Envelope(JobsHealth) } } },
    async (req) => ok(req, { time: ctx.now(), role: 'jobs' as const, leading: election.leading() }),
  )
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ code: CODE.NOT_FOUND, msg: translate(req.lang, 'errors.notFound'), data: null }))
  return { app, ctx, election }
}
