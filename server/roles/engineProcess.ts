// `--role engine` (issue 19, docs/processes.md): a process that runs the market's engine while it
// leads that market's election (advisory lock ENGINE_KEY + the market's index, server/roles/leader.ts)
// and stands by otherwise. Leading, it rebuilds the book from the journal (Exchange.start), announces
// where the market stands to the API processes' mirrors (a base on the bus), takes the trading
// commands the API processes write (./tradeCommands.ts) and publishes every push through the bus; the
// demo market, when on, trades here too. Losing the lead stops all of it before anything else is
// written: a process unsure that it leads must not write the book.
//
// Its HTTP answers only a health check saying whether it leads.

import { Type } from 'typebox'
import { CODE } from '../../contract/constants.ts'
import { Envelope } from '../../contract/envelope.ts'
import { openServer, type BuildOptions } from '../app.ts'
import type { Ctx } from '../context.ts'
import { defaultSpec } from '../exchange/engine/index.ts'
import { seedDemoHistory, startDemoMarket } from '../exchange/demoMarket.ts'
import { Exchange } from '../exchange/exchange.ts'
import { ok } from '../http/reply.ts'
import type { App } from '../http/types.ts'
import { translate } from '../i18n.ts'
import { busPublisher } from '../ws/hub.ts'
import { elect, ENGINE_KEY, type Election } from './leader.ts'
import { baseTopics, marketBase, serveMarketBase } from './marketMirror.ts'
import { busOf } from './pgBus.ts'
import { serveTradeCommands } from './tradeCommands.ts'

export interface EngineBuilt {
  app: App
  ctx: Ctx
  election: Election
  /** The market's exchange while this process leads, else null (for tests). */
  exchange(): Exchange | null
}

const EngineHealth = Type.Object({ time: Type.Integer(), role: Type.Literal('engine'), inst_id: Type.String(), leading: Type.Boolean() })

export async function buildEngineProcess(opts: BuildOptions): Promise<EngineBuilt> {
  const { config } = opts
  if (config.role !== 'engine' || config.databaseUrl === null) throw new Error('buildEngineProcess runs --role engine on PostgreSQL (NADI_DATABASE_URL)')
  const { app, ctx } = await openServer(opts)
  const bus = opts.bus ?? busOf(config, app.log)
  const spec = defaultSpec
  // The one market's index (its election key is ENGINE_KEY + index); markets of their own would each have one.
  const index = 0
  let running: { exchange: Exchange; stop(): Promise<void> } | null = null

  const lead = async () => {
    const exchange = new Exchange({
      conn: ctx,
      spec,
      fees: { makerFeePpm: config.trade.makerFeePpm, takerFeePpm: config.trade.takerFeePpm },
      now: ctx.now,
      publisher: busPublisher(bus),
      log: app.log,
      maxBatch: config.trade.maxBatch,
      maxDelayMs: config.trade.maxDelayMs,
      snapshotEvery: config.trade.snapshotEvery,
      maxOpenPerUser: config.trade.maxOpenOrdersPerUser,
    })
    if (config.trade.demoMarket) await seedDemoHistory(ctx.sql, spec, { now: ctx.now(), referencePrice: config.nadiReferencePrice })
    await exchange.start()
    const offBase = serveMarketBase(bus, exchange)
    // Mirrors that followed a predecessor start again from this book, not from where it stopped.
    bus.publish(baseTopics(spec.instId).base, marketBase(exchange))
    const commands = serveTradeCommands(exchange, bus, { log: app.log, now: ctx.now })
    const stopDemo = config.trade.demoMarket ? await startDemoMarket(ctx, exchange, { everyMs: config.trade.demoMarketEveryMs, referencePrice: config.nadiReferencePrice }) : null
    running = {
      exchange,
      async stop() {
        await stopDemo?.()
        await commands.close()
        offBase()
        await exchange.close()
      },
    }
  }

  const election = elect({
    url: config.databaseUrl,
    name: `engine ${spec.instId}`,
    key: ENGINE_KEY + index,
    everyMs: config.leaderEveryMs,
    onLead: lead,
    onLose: async () => {
      const r = running
      running = null
      await r?.stop()
    },
    log: app.log,
  })
  // Before the bus, the database and the lock close (onClose): the engine stops first, then the lead goes.
  app.addHook('preClose', () => election.close())
  app.addHook('onClose', async () => bus.close())

  app.get(
    '/api/v1/common/health',
    { schema: { summary: "Liveness of an engine process, and whether it leads its market's engine", response: { 200: Envelope(EngineHealth) } } },
    async (req) => ok(req, { time: ctx.now(), role: 'engine' as const, inst_id: spec.instId, leading: election.leading() }),
  )
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ code: CODE.NOT_FOUND, msg: translate(req.lang, 'errors.notFound'), data: null }))
  return { app, ctx, election, exchange: () => running?.exchange ?? null }
}
