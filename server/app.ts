import type { RawData } from 'ws'
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fastifyWebsocket from '@fastify/websocket'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Ajv, type Options as AjvOptions } from 'ajv'
import addFormats from 'ajv-formats'
import { CODE } from '../contract/constants.ts'
import type { Config } from './config.ts'
import type { Ctx } from './context.ts'
import { openDatabase } from './db/index.ts'
import { migrateDatabase } from './db/migrate.ts'
import { ApiError, databaseLost, raceRefusal } from './http/errors.ts'
import { authHook } from './http/auth.ts'
import { idempotency } from './http/idempotency.ts'
import { refusal } from './http/reply.ts'
import { envelope, openEnvelopeKey, readSealedBody, socketProof } from './http/seal.ts'
import { sendHomeShell, serveApp } from './http/static.ts'
import { HOME_PATHS } from './http/shell.ts'
import type { App } from './http/types.ts'
import { langOf, translate } from './i18n.ts'
import { addressRoutes } from './modules/address/routes.ts'
import { createAddressService } from './modules/address/service.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { createAuthService } from './modules/auth/service.ts'
import { commonRoutes } from './modules/common/routes.ts'
import { createCommonService } from './modules/common/service.ts'
import { noticeRoutes } from './modules/notice/routes.ts'
import { createNoticeService } from './modules/notice/service.ts'
import { userRoutes } from './modules/user/routes.ts'
import { teamRoutes } from './modules/team/routes.ts'
import { createTeamService } from './modules/team/service.ts'
import { createUserService } from './modules/user/service.ts'
import { withdrawRoutes } from './modules/withdraw/routes.ts'
import { createWithdrawService } from './modules/withdraw/service.ts'
import { uploadRoutes } from './modules/upload/routes.ts'
import { createUploadService } from './modules/upload/service.ts'
import { carApplyRoutes } from './modules/car/applyRoutes.ts'
import { createCarApplyService } from './modules/car/apply.ts'
import { Hub, stopHubFirst } from './ws/hub.ts'
import type { Bus } from './roles/bus.ts'
import { busOf } from './roles/pgBus.ts'
import { startChainGateway, type Gateway } from './chain/gateway.ts'
import { walletRoutes } from './modules/wallet/routes.ts'
import { createWalletService } from './modules/wallet/service.ts'
import { rechargeRoutes } from './modules/recharge/routes.ts'
import { createRechargeService } from './modules/recharge/service.ts'
import { startLivePushes } from './roles/livePushes.ts'
import { Exchange, tradeBalances } from './exchange/exchange.ts'
import { GroupCommit } from './db/groupCommit.ts'
import { defaultSpec } from './exchange/engine/index.ts'
import { exchangeView, marketStreamsOf, type MarketView } from './exchange/streams.ts'
import { parseMoney } from '../contract/money.ts'
import { seedDemoHistory, startDemoMarket } from './exchange/demoMarket.ts'
import { tradeRoutes } from './modules/trade/routes.ts'
import { ordersRoutes } from './modules/orders/routes.ts'
import { createOrdersService } from './modules/orders/service.ts'
import { createGoodsService } from './modules/goods/service.ts'
import { machineRoutes } from './modules/machine/routes.ts'
import { goldRoutes } from './modules/gold/routes.ts'
import { carRoutes } from './modules/car/routes.ts'
import { preOrderRoutes } from './modules/preOrder/routes.ts'
import { createPreOrderService } from './modules/preOrder/service.ts'
import { createNodeService } from './modules/node/service.ts'
import { nodeRoutes } from './modules/node/routes.ts'
import { createLendingService } from './modules/lending/service.ts'
import { lendingRoutes } from './modules/lending/routes.ts'
import { createPledgeService } from './modules/pledge/service.ts'
import { pledgeRoutes } from './modules/pledge/routes.ts'
import { createMiningService } from './modules/mining/service.ts'
import { miningRoutes } from './modules/mining/routes.ts'
import { deviceRoutes } from './modules/device/routes.ts'
import { createDeviceService } from './modules/device/service.ts'
import { jsonBodies } from './http/body.ts'
import { createTradeService, exchangeMarket, type TradeMarket } from './modules/trade/service.ts'
import { devchainRoutes } from './modules/devchain/routes.ts'
import { createRankingService, registerRankingStream } from './modules/ranking/service.ts'
import { rankingRoutes } from './modules/ranking/routes.ts'
import { lockDatabase, type WriterLock } from './db/writerLock.ts'
import type { SqlConnection } from './db/connection.ts'
import { listenOps, opsSocketPath } from './ops.ts'
import { runInServer } from './cli.ts'
import { activityRoutes } from './modules/activity/routes.ts'
import { followMarket, mirrorView } from './roles/marketMirror.ts'
import { remoteMarket } from './roles/remoteMarket.ts'
import { remoteTrading } from './roles/tradeCommands.ts'
import { startJobsOf } from './roles/jobs.ts'
import { nadiPriceOf, wireReactions } from './roles/reactions.ts'
import { createActivityService } from './modules/activity/service.ts'
import { seedAlone } from './roles/seeds.ts'
import { operatorAccess, isOperatorUrl } from './modules/operator/guard.ts'
import { operatorRoutes } from './modules/operator/routes.ts'
import { createOperatorAuth } from './modules/operator/signIn.ts'

export interface BuildOptions {
  config: Config
  /** A clock tests can move. */
  now?: () => number
  /** Where socket pushes travel (server/roles/bus.ts): by default this process alone (LocalBus) for
   * --role all, PostgreSQL's (PgBus) for a role process (busOf). The app closes it after its sockets. */
  bus?: Bus
}

export interface Built {
  app: App
  ctx: Ctx
  hub: Hub
  rootInviteCode: string
  /** The one door to the chains (server/chain/gateway.ts); on dev chains it owns the anvil nodes. */
  gateway: Gateway
  /** The spot market, for tests and tools that need to reach the book directly; null in an api process (the engine is elsewhere). */
  exchange: Exchange | null
  /** SQLite only: the in-process connection, for the tests and tools of what is SQLite's alone. */
  sqlite?: SqlConnection
}

function ajv(opts: AjvOptions) {
  const a = new Ajv({ allErrors: false, useDefaults: true, strict: false, ...opts })
  addFormats.default(a)
  return a
}

/** The field an Ajv error is about, as the client named it. */
function fieldOf(err: FastifyError): string {
  const v = err.validation?.[0]
  if (!v) return ''
  const missing = (v.params as { missingProperty?: string }).missingProperty
  const p = v.instancePath.replace(/^\//, '').replace(/\//g, '.')
  return missing ? (p ? `${p}.${missing}` : missing) : p || (err.validationContext ?? '')
}

/** What a server of every role has: a writer lock, the database, the chains, the context, and HTTP's envelope and errors. */
export interface Opened {
  app: App
  ctx: Ctx
  gateway: Gateway
  lock: WriterLock
  /** SQLite only: the in-process connection, for the operator commands that are SQLite's (backup). */
  sqlite?: SqlConnection
}

/**
 * The part of a server every role shares: Fastify with the envelope's validation and errors, the
 * database under its writer lock (exclusive for --role all, a share of it for a role process),
 * migrated, the chains' gateway and the context. Closing the app closes them, the lock last.
 */
export async function openServer({ config, now = Date.now }: BuildOptions): Promise<Opened> {
  const app = Fastify({
    logger: { level: config.logLevel },
    // A sealed body is base64url of the real one plus the envelope: the real one is held to the limit once opened.
    bodyLimit: config.envelope.on ? Math.ceil((config.bodyLimit * 4) / 3) + 1024 : config.bodyLimit,
    trustProxy: config.trustProxy,
    // A URL that is not valid percent-encoding never reaches a route, the hooks or the error handler;
    // without this Fastify answers it in a shape of its own instead of the envelope.
    frameworkErrors: (err, req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400
      // Typed against a request schema this handler has none of; it is a plain reply.
      void (reply as FastifyReply).status(status).header('cache-control', 'no-store').send({ code: status, msg: translate(langOf(req.headers.lang), 'errors.badRequest'), data: null })
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  // One writer per database (server/db/writerLock.ts): a second server on it stops here, naming the first.
  const lock = config.role === 'all' ? await lockDatabase(config, 'server') : await lockDatabase(config, `server --role ${config.role}`, { shared: true })
  let database
  try {
    database = openDatabase(config.database, { checkpointInWorker: true, pgPool: config.pgPool })
    await migrateDatabase(database)
  } catch (e) {
    await database?.close().catch(() => undefined)
    await lock.release()
    throw e
  }
  const { sqlite, db, sql, close } = database
  // The last hook to run (onClose hooks run in reverse order of adding): the locks outlive every write.
  app.addHook('onClose', async () => {
    await close()
    await lock.release()
  })

  // Before any route that reads a chain. Dev chains: two anvil nodes with fresh tokens (≈0.3 s),
  // stopped when the app closes (after the preClose hooks have stopped the jobs that use them).
  const gateway = await startChainGateway(config, app.log)
  app.addHook('onClose', async () => gateway.close())
  const commits = new GroupCommit({ db, sql })
  const ctx: Ctx = { config, db, sql, now, log: app.log, chain: gateway, commits }
  // After every job and route that submits to it (onClose runs after the preClose hooks).
  app.addHook('onClose', async () => commits.close())

  // Bodies are checked strictly (a string is not a number); query strings arrive as text and are coerced.
  const strict = ajv({ coerceTypes: false, removeAdditional: false })
  const coercing = ajv({ coerceTypes: 'array', removeAdditional: false })
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema))
  jsonBodies(app, config.envelope.on ? readSealedBody : undefined)

  app.decorateRequest('lang', 'TW')
  // Production serves its public origin's host only: a proxy under another name (a phishing copy)
  // gets a refusal naming the real address, never a page or a sign-in message. Health is answered to
  // any host: balancers and orchestrators ask each process by its own address (docs/deploy.md).
  const servedHost = config.env === 'production' && config.publicUrl ? new URL(config.publicUrl).host : null
  // A console on an origin of its own (NADI_OPERATOR_ORIGIN) is served there its operator routes only.
  const consoleHost = config.operator.origin ? new URL(config.operator.origin).host : null
  app.addHook('onRequest', async (req, reply) => {
    req.lang = langOf(req.headers.lang)
    const served = req.host === servedHost || (req.host === consoleHost && isOperatorUrl(req.url))
    if (servedHost !== null && !served && req.routeOptions.url !== '/api/v1/common/health') throw new ApiError(403, CODE.FORBIDDEN, 'errors.wrongHost', { origin: config.publicUrl! })
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    reply.header('x-frame-options', 'DENY')
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store')
  })

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const t = (key: string, params?: Record<string, string | number>) => translate(req.lang, key, params)
    const fieldName = (field: string) => {
      const label = t(`fields.${field}`)
      return label.startsWith('fields.') ? field : label
    }
    if (err instanceof ApiError) return reply.status(err.status).send(refusal(req, err))
    if (err.validation) {
      return reply.status(400).send({ code: CODE.INVALID, msg: t('errors.invalidField', { field: fieldName(fieldOf(err)) }), data: null })
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({ code: 413, msg: t('errors.bodyTooLarge'), data: null })
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send({ code: 415, msg: t('errors.unsupportedMediaType'), data: null })
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send({ code: CODE.INVALID, msg: t('errors.malformedBody'), data: null })
    }
    const lost = databaseLost(err)
    if (lost) {
      req.log.warn({ err }, 'the database connection was lost under a request, answered 503')
      return reply.status(lost.status).send(refusal(req, lost))
    }
    const race = raceRefusal(err)
    if (race) {
      req.log.warn({ err }, 'a race the database refused, answered 409')
      return reply.status(race.status).send(refusal(req, race))
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ code: err.statusCode, msg: t('errors.badRequest'), data: null })
    }
    req.log.error({ err }, 'unhandled error')
    return reply.status(500).send({ code: CODE.SERVER, msg: t('errors.server'), data: null })
  })
  return { app, ctx, gateway, lock, ...(sqlite ? { sqlite } : {}) }
}

/**
 * The server that answers users: HTTP, sockets and the market's engine, for --role all and api; the
 * background jobs too for all. (--role jobs is server/roles/jobsProcess.ts.)
 */
export async function buildApp(opts: BuildOptions): Promise<Built> {
  const { config } = opts
  if (config.role === 'jobs') throw new Error('buildApp serves users (--role all or api); a jobs process is built by buildJobsProcess (server/roles/jobsProcess.ts)')
  const now = opts.now ?? Date.now
  // Before anything is opened: a server whose key the app beside it was not built with does not start.
  const envelopeKey = config.envelope.on ? openEnvelopeKey(config.envelope, { production: config.env === 'production', distDir: config.distDir }) : null
  const { app, ctx, gateway, lock, sqlite } = await openServer(opts)
  const bus = opts.bus ?? busOf(config, app.log)
  const { db, sql } = ctx

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'NADI API', version: '1', description: 'Every body is the envelope {code, msg, data}; code 200 is success.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  })
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' })

  const auth = createAuthService(ctx)
  const notices = createNoticeService(ctx)
  authHook(app, auth)
  idempotency(app, ctx)
  // After idempotency: its onSend stores the plain answer, this one seals what leaves.
  const sealing = envelopeKey ? envelope(app, ctx, auth, envelopeKey) : null

  authRoutes(app, auth)
  // The operator console's routes (issue 35): their own prefix, sessions and guard, the same envelope.
  const operatorAuth = createOperatorAuth(ctx)
  operatorAccess(app, ctx, operatorAuth)
  operatorRoutes(app, ctx, operatorAuth)
  userRoutes(app, createUserService(ctx))
  teamRoutes(app, createTeamService(ctx))
  noticeRoutes(app, notices)
  addressRoutes(app, createAddressService(ctx))
  // The spot market (server/exchange): the book rebuilt from its journal before the first request.
  const hub = new Hub(config.ws, now, (ids) => auth.liveSessions(ids), { bus, log: app.log })
  // onClose runs after every preClose hook, the sockets' and the jobs' that publish included.
  app.addHook('onClose', async () => bus.close())
  auth.onSessionEnd((sessionId) => hub.closeSession(sessionId))
  // The market: its engine in this process (--role all), or, for an api process, a mirror of the
  // engine process's pushes and its command table (server/roles/remoteMarket.ts).
  const fees = { makerFeePpm: config.trade.makerFeePpm, takerFeePpm: config.trade.takerFeePpm }
  /** What to stop when the app closes, in the order started (see the preClose hook at the end). */
  const stops: (() => unknown)[] = []
  let exchange: Exchange | null = null
  let market: TradeMarket
  let view: MarketView
  let lastPrice: () => bigint | null
  if (config.role === 'api') {
    const followed = followMarket(bus, defaultSpec.instId, { log: app.log })
    const trading = remoteTrading(ctx.sql, bus, { instId: defaultSpec.instId, index: 0, now })
    stops.push(() => {
      followed.close()
      trading.close()
    })
    market = remoteMarket({ spec: defaultSpec, fees, sql: ctx.sql, mirror: followed.mirror, trading, now })
    view = mirrorView(followed.mirror, { now, tradeBalances: (userId) => tradeBalances(ctx.sql, userId) })
    lastPrice = () => {
      const last = followed.mirror.ticker()?.last
      return last ? parseMoney(last) : null
    }
  } else {
    const ex = new Exchange({
      conn: ctx,
      spec: defaultSpec,
      fees,
      now,
      publisher: hub,
      log: app.log,
      maxBatch: config.trade.maxBatch,
      maxDelayMs: config.trade.maxDelayMs,
      snapshotEvery: config.trade.snapshotEvery,
      maxOpenPerUser: config.trade.maxOpenOrdersPerUser,
    })
    // Demo: days of made-up candles before the live demo market's first trade, once per data folder.
    if (config.trade.demoMarket) await seedDemoHistory(ctx.sql, defaultSpec, { now: now(), referencePrice: config.nadiReferencePrice })
    await ex.start()
    // Closed after the jobs and the demo market that place orders (stops run last added first).
    stops.push(() => ex.close())
    exchange = ex
    market = exchangeMarket(ex)
    view = exchangeView(ex)
    lastPrice = () => ex.lastPrice()
  }
  for (const family of marketStreamsOf(view)) hub.register(family)
  tradeRoutes(app, createTradeService(market))
  const common = createCommonService(ctx, notices, { lastPrice })
  commonRoutes(app, common)

  walletRoutes(app, createWalletService(ctx, { lastPrice }))
  const orders = createOrdersService(ctx)
  ordersRoutes(app, orders)
  // The shops (DESIGN §10): catalogs, product orders, fulfilment in the payment's transaction.
  const nadiPrice = nadiPriceOf(config, lastPrice)
  // Payments' fulfilment and the settlement's steps, as in every process that writes.
  wireReactions(ctx, { nadiPrice })
  miningRoutes(app, createMiningService(ctx, orders, { nadiPrice }))
  nodeRoutes(app, createNodeService(ctx, orders))
  lendingRoutes(app, createLendingService(ctx))
  const preOrder = createPreOrderService(ctx, orders)
  const shop = { ctx, goods: createGoodsService(ctx), preOrder }
  machineRoutes(app, shop)
  // Devices (issue 11 part 2): made when a device order is paid (fulfil), activated with their code.
  deviceRoutes(app, createDeviceService(ctx))
  goldRoutes(app, shop)
  carRoutes(app, shop)
  preOrderRoutes(app, preOrder)
  rechargeRoutes(app, createRechargeService(ctx))
  const withdrawConfig = config.withdraw
  withdrawRoutes(app, createWithdrawService(ctx, withdrawConfig))
  // Uploads (DESIGN §10): presigned URLs to the data folder or an S3-compatible bucket; car applications use them.
  const uploads = await createUploadService(ctx)
  uploadRoutes(app, uploads, config.publicUrl)
  carApplyRoutes(app, createCarApplyService(ctx, uploads))
  // Demo only: the Demo wallet's RPC proxy and the test-token faucet, registered only on dev chains.
  if (config.chain.devChains && gateway.isDev) devchainRoutes(app, ctx)

  await app.register(fastifyWebsocket, { options: { maxPayload: config.ws.maxPayload }, preClose: stopHubFirst(hub) })
  app.get('/ws', { websocket: true, schema: { hide: true } }, async (socket, req) => {
    const q = req.query as Record<string, unknown>
    const token = q.token
    // Frames a client sends at once after the upgrade (its subscriptions) arrive while its session is
    // still being looked up: they are kept and handed to the hub once it listens, in order.
    const early: [RawData, boolean][] = []
    const keep = (data: RawData, isBinary: boolean) => void early.push([data, isBinary])
    socket.on('message', keep)
    // With the envelope on a token counts only with its handshake's proof; without one it is as no token.
    const user = typeof token !== 'string' || !token ? null : sealing ? await socketProof(sealing, auth, now(), q) : await auth.authenticate(token)
    socket.off('message', keep)
    hub.attach(socket, user)
    for (const [data, isBinary] of early) socket.emit('message', data, isBinary)
  })
  hub.start()

  // A bucket on another origin is where the app PUTs uploads: the shell's CSP lets it connect there.
  const shell = await serveApp(app, config.distDir, { swKill: config.swKill, connectSrc: uploads.store.origin ? [uploads.store.origin] : [] })
  const hasApp = shell !== null
  // Through the static plugin: precompressed, with an ETag, and 'no-cache' from its header rules. The
  // home screen's copy names its first banner, so the browser fetches it with the HTML.
  const sendShell = async (req: FastifyRequest, reply: FastifyReply) =>
    shell && HOME_PATHS.has(req.url.split('?')[0]!)
      ? // A banner that cannot be read costs the preload, never the shell.
        sendHomeShell(req, reply, shell, await common.firstHomeBannerImage().catch(() => null))
      : reply.sendFile('index.html')
  // The static plugin answers a directory (and "/" is one) with 403 since it serves no index files.
  if (hasApp) app.get('/', { schema: { hide: true } }, (req, reply) => sendShell(req, reply))
  app.setNotFoundHandler((req, reply) => {
    const url = req.url
    // A missing hashed asset is a 404, never the shell: a stale page must not run HTML as a script.
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/ws') || url.startsWith('/assets/') || (req.method !== 'GET' && req.method !== 'HEAD') || !hasApp) {
      return reply.status(404).send({ code: CODE.NOT_FOUND, msg: translate(req.lang, 'errors.notFound'), data: null })
    }
    // Every other GET is a client route: the shell answers and the app's router takes over.
    return sendShell(req, reply)
  })

  // user@deposit and user@withdraw (DESIGN §5): each change pushed to its owner only.
  hub.register({ private: true, matches: (s) => s === 'user@deposit' })
  hub.register({ private: true, matches: (s) => s === 'user@withdraw' })
  // Sent from here when this process works alone; an api process relays the jobs leader's (server/roles/livePushes.ts).
  if (config.role === 'all') {
    stops.push(startLivePushes(ctx, hub))
  }

  pledgeRoutes(app, createPledgeService(ctx))
  // The live ranking (issue 12 part 3) on this process's sockets; its updates come with the pushes above.
  registerRankingStream(ctx, hub)
  rankingRoutes(app, createRankingService(ctx))
  // Activities (issue 12 part 4): read-only routes; prizes are paid by a job.
  activityRoutes(app, createActivityService(ctx))

  // Operator commands that write run in here, sent by `tsx server/cli.ts` over the operator socket.
  // Only the process holding the database alone takes them: role processes share it, and the
  // commands' checks (the book in memory, batches in flight) hold only for a process writing alone.
  if (exchange && config.role === 'all' && config.dbFile !== ':memory:') {
    const market = exchange
    const ops = await listenOps(opsSocketPath(config.lockFile), ({ argv, user }) => runInServer(argv, { config, database: { sqlite, db, sql, close: async () => {} }, market }, user), app.log)
    lock.setSocket(ops.path)
    stops.push(() => ops.close())
  }

  // The root and the demo's seeds, one process at a time (several api processes may start at once).
  const rootInviteCode = await seedAlone(ctx, auth)
  // Every background job (server/roles/jobs.ts), after the seeds they read; stopped before the
  // operator socket, the pushes and the market (and, in onClose, the chains). A role process leaves
  // them to the jobs role.
  if (config.role === 'all') stops.push(startJobsOf(ctx, { uploads }))
  // The demo market trades where the engine is: here, or in the engine process.
  if (config.trade.demoMarket && exchange) {
    stops.push(await startDemoMarket(ctx, exchange, { everyMs: config.trade.demoMarketEveryMs, referencePrice: config.nadiReferencePrice }))
  }
  // Fastify runs preClose hooks in the order they were added, which is the order things started; they
  // stop the other way round: what places orders or publishes before what it places them into.
  app.addHook('preClose', async () => {
    for (const stop of stops.reverse()) await stop()
  })
  return { app, ctx, hub, rootInviteCode, gateway, exchange, ...(sqlite ? { sqlite } : {}) }
}
