// Demo-only chain helpers (registered only when the server runs its own dev chains, never in
// production — config refuses NADI_DEV_CHAINS there):
// - POST /api/v1/devchain/rpc/:chain — a JSON-RPC proxy to the local anvil node, for the in-browser
//   Demo wallet. Only the read and broadcast methods a wallet needs pass; node controls (anvil_*,
//   evm_*, eth_sendTransaction with unlocked accounts…) are refused.
// - POST /api/v1/devchain/faucet {chain, address?} — test USDT, NADI and gas coin for a signed-in
//   user's wallet, a few times a minute per chain (the app asks every chain on one tap); past that,
//   429 with Retry-After and a message that says in how many seconds.
import { Type } from 'typebox'
import { getAddress, parseUnits } from 'ethers'
import type { FastifyReply } from 'fastify'
import type { Ctx } from '../../context.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest, notFound, tooMany } from '../../http/errors.ts'
import { WindowLimiter } from '../../http/rateLimit.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'

export const RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_getTransactionByHash',
  'eth_sendRawTransaction',
  'eth_getBlockByNumber',
])

/** JSON-RPC bodies are small; a signed transfer is well under 2 KiB. */
export const RPC_BODY_LIMIT = 64 * 1024
export const FAUCET_PER_MINUTE = 5
export const FAUCET_AMOUNTS = { USDT: parseUnits('1000', 18), NADI: parseUnits('1000', 18), native: parseUnits('1', 18) }

const RpcBody = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.Integer(), Type.String({ maxLength: 64 }), Type.Null()]),
    method: Type.String({ minLength: 1, maxLength: 64 }),
    params: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 8 })),
  },
  { additionalProperties: false },
)
const FaucetBody = Type.Object(
  { chain: Type.String({ minLength: 1, maxLength: 16 }), address: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
)

type RpcId = number | string | null
const isJson = (type: string | undefined) => (type ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json'
const notJson = (reply: FastifyReply) => rpcError(reply, 415, null, -32700, 'Unsupported media type: send application/json')

const rpcError = (reply: FastifyReply, status: number, id: RpcId, code: number, message: string) =>
  reply.status(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id, error: { code, message } })

export function devchainRoutes(app: App, ctx: Ctx): void {
  const gw = ctx.chain
  if (!gw.isDev) return
  const tags = ['devchain']
  const keys = new Set(gw.chains().map((c) => c.key))
  /** A chain by key ('bsc') or id ('56'); null when unknown. */
  const chainKey = (ref: string): string | null => {
    if (keys.has(ref)) return ref
    const byId = /^[0-9]{1,12}$/.test(ref) ? gw.chains().find((c) => c.id === Number(ref)) : undefined
    return byId?.key ?? null
  }

  app.post(
    '/api/v1/devchain/rpc/:chain',
    {
      bodyLimit: RPC_BODY_LIMIT,
      config: { idempotent: false },
      // A body that is not JSON at all (text/plain, a form, XML) is the client's mistake, not the node's:
      // refused before it is parsed, whatever parser the type would find.
      preValidation: async (req, reply) => {
        if (!isJson(req.headers['content-type'])) return notJson(reply)
      },
      // JSON-RPC speaks its own error shape, so a malformed call is answered in it, not in the envelope.
      errorHandler: (err, req, reply) => {
        if (err.validation) return rpcError(reply, 400, null, -32600, 'Invalid request: expected {jsonrpc: "2.0", id, method, params?}')
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return rpcError(reply, 413, null, -32600, 'Request too large')
        if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return rpcError(reply, 400, null, -32700, 'Parse error')
        if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return notJson(reply)
        req.log.error({ err }, 'devchain rpc failed')
        return rpcError(reply, 502, null, -32603, 'Chain node unavailable')
      },
      schema: {
        tags,
        summary: 'Demo only: JSON-RPC to the local dev chain, for the Demo wallet (read and broadcast methods only)',
        params: Type.Object({ chain: Type.String({ maxLength: 16 }) }),
        body: RpcBody,
      },
    },
    async (req, reply) => {
      const { id, method, params = [] } = req.body
      const key = chainKey(req.params.chain)
      if (!key) return rpcError(reply, 404, id, -32602, `Unknown chain ${req.params.chain}`)
      if (!RPC_METHODS.has(method)) return rpcError(reply, 403, id, -32601, `Method not allowed: ${method}`)
      const url = gw.chain(key).rpcUrl
      if (!url) return rpcError(reply, 503, id, -32603, 'Chain node unavailable')
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(15_000),
      })
      const answer = (await res.json()) as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
      // Re-shaped rather than passed through: only the JSON-RPC fields leave the server.
      const body = answer.error
        ? { jsonrpc: '2.0', id, error: { code: typeof answer.error.code === 'number' ? answer.error.code : -32603, message: String(answer.error.message ?? 'error'), ...(answer.error.data !== undefined ? { data: answer.error.data } : {}) } }
        : { jsonrpc: '2.0', id, result: answer.result ?? null }
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )

  // Per user and chain: one tap asks each chain once, so a tap is either served on all of them or on none.
  const perUser = new WindowLimiter(FAUCET_PER_MINUTE, 60_000)
  app.post(
    '/api/v1/devchain/faucet',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Demo only: test USDT and NADI (1000 each) and 1 gas coin to an address (the caller’s own by default) on a dev chain; 429 with Retry-After past a few a minute per chain',
        security: [{ bearer: [] }],
        body: FaucetBody,
      },
    },
    async (req, reply) => {
      const user = req.user!
      const key = chainKey(req.body.chain)
      if (!key) throw badRequest('errors.selectChain')
      let to: string
      try {
        to = getAddress(req.body.address ?? user.address)
      } catch {
        throw badRequest('errors.withdrawAddressInvalid')
      }
      const now = ctx.now()
      const limitKey = `${user.id}:${key}`
      if (!perUser.take(limitKey, now)) {
        const seconds = Math.max(1, Math.ceil(perUser.retryAfter(limitKey, now) / 1000))
        reply.header('retry-after', String(seconds))
        throw tooMany('errors.faucetTooFrequent', { seconds })
      }
      if (!gw.isDev) throw notFound()
      await gw.faucet(key, to, FAUCET_AMOUNTS)
      return ok(req, { chain: key, address: to, usdt: '1000', nadi: '1000', native: '1' })
    },
  )
}
