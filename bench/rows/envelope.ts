// The production envelope's cost (issue 20, docs/envelope.md), each beside its target:
// 1. on the server: openRequest + sealAnswer (server/http/sealCrypto.ts, node:crypto) of a typical
//    placeOrder body and its answer, per request, µs p50 and p99;
// 2. in the app: sealRequest + openAnswer (src/api/sealCrypto.ts, WebCrypto) of the same, in
//    Chromium (bench/pages/envelope.ts), per request, µs p50 and p99.
// Both sides use one handshake's keys (64 random bytes, as HKDF would give): the handshake itself is
// once per 10 minutes, not per request. Each side's work is checked: what the app seals the server
// opens to the same body, and what the server seals the app opens to the same answer.

import crypto from 'node:crypto'
import path from 'node:path'
import { toBase64Url, type SealedRequest } from '../../contract/seal.ts'
import { openRequest, sealAnswer, type HandshakeKeys } from '../../server/http/sealCrypto.ts'
import { importKeys, sealRequest } from '../../src/api/sealCrypto.ts'
import type { EnvelopeInput, EnvelopeResult } from '../pages/envelope.ts'
import { openBenchPage } from '../support/page.ts'
import { summarize } from '../support/stats.ts'
import { atMost, type BenchContext, type Row } from '../support/types.ts'

export const id = 'envelope'

const PAGE = 'bench/pages/envelope.html'
const METHOD = 'POST'
const PATH = '/api/v1/trade/placeOrder'
const SERVER_ITERATIONS = 20_000
const SERVER_WARM_UP = 2_000
const APP_ITERATIONS = 2_000
const APP_WARM_UP = 200
/** Sealed requests the server's loop cycles through (each distinct, as real ones are). */
const POOL = 64
// Targets: the server places ~2,700 orders/s on a quiet machine (docs/processes.md), ~370 µs each, and
// the envelope may cost at most 15 % of that throughput: ~55 µs a request for everything it adds, so
// the crypto's p50 must stay under 50 µs. In the app, sealing must never take a visible share of a
// frame (16 ms) from the screen.
const SERVER_P50_MAX_US = 50
const SERVER_P99_MAX_US = 150
const APP_P50_MAX_US = 1_000
const APP_P99_MAX_US = 4_000

const micros = (us: number) => `${us < 10 ? us.toFixed(1) : Math.round(us)} µs`
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN

/** A typical placeOrder body and its answer (the order as the server returns it), as JSON. */
function typicalOrder(now: number): { body: string; answer: string } {
  const body = { inst_id: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.2513', size: '125.5', client_order_id: 'c-1732690000000-k3v9x2' }
  const order = {
    id: 184_467,
    client_order_id: body.client_order_id,
    inst_id: body.inst_id,
    side: body.side,
    type: body.type,
    price: body.price,
    size: body.size,
    quote_amount: null,
    filled: '80.25',
    filled_quote: '20.1668',
    avg_price: '0.2513',
    fee: '0.0802',
    fee_asset: 'NADI',
    status: 'partially_filled',
    created_at: now,
    updated_at: now,
  }
  return { body: JSON.stringify(body), answer: JSON.stringify({ code: 200, msg: 'OK', data: order }) }
}

/** p50 and p99 of each run's samples, and their medians over the runs. */
function spread(runs: number[][]) {
  const per = runs.map((s) => {
    const sorted = [...s].sort((a, b) => a - b)
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) }
  })
  return { p50: summarize(per.map((r) => r.p50)), p99: summarize(per.map((r) => r.p99)) }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const now = Date.now()
  const raw = crypto.randomBytes(64)
  const handshake = toBase64Url(crypto.randomBytes(16))
  const expiresAt = now + 600_000
  const server: HandshakeKeys = { handshake, enc: raw.subarray(0, 32), mac: raw.subarray(32, 64), expiresAt }
  const app = await importKeys(handshake, raw, expiresAt)
  const { body, answer } = typicalOrder(now)
  const answerBytes = Buffer.from(answer)
  const type = 'application/json; charset=utf-8'

  // 1. The server's side, on requests the app's code sealed.
  const pool: { sealed: SealedRequest; idempotencyKey: string }[] = []
  for (let i = 0; i < POOL; i++) {
    const idempotencyKey = crypto.randomUUID()
    pool.push({ sealed: await sealRequest(app, { method: METHOD, path: PATH, timestamp: now, idempotencyKey, json: body }), idempotencyKey })
  }
  const serverOnce = (i: number) => {
    const { sealed, idempotencyKey } = pool[i % POOL]!
    const plain = openRequest(server, { method: METHOD, path: PATH, idempotencyKey }, sealed)
    if (!Buffer.isBuffer(plain) || plain.length !== body.length) throw new Error(`the server did not open a sealed request: ${String(plain)}`)
    return sealAnswer(server, { method: METHOD, path: PATH, requestSign: sealed.sign, status: 200, type }, answerBytes, now)
  }
  for (let i = 0; i < SERVER_WARM_UP; i++) serverOnce(i)
  // The cost is the work's, not the machine's: an iteration during which the OS took the CPU away
  // (an involuntary context switch; this machine is shared) is left out, and how many were is told.
  const serverRuns: number[][] = []
  let preempted = 0
  for (let r = 0; r < ctx.runs; r++) {
    const samples: number[] = []
    while (samples.length < SERVER_ITERATIONS) {
      const switches = process.resourceUsage().involuntaryContextSwitches
      const t0 = performance.now()
      serverOnce(samples.length)
      const us = (performance.now() - t0) * 1000
      if (process.resourceUsage().involuntaryContextSwitches === switches) samples.push(us)
      else preempted++
    }
    serverRuns.push(samples)
  }
  const onServer = spread(serverRuns)
  ctx.log(`envelope: server p50 ${micros(onServer.p50.median)}, p99 ${micros(onServer.p99.median)} (${ctx.runs} × ${SERVER_ITERATIONS}, ${preempted} preempted iterations left out)`)

  // 2. The app's side in Chromium, on an answer the server's code sealed. The page is cross-origin
  // isolated, so its clock reads to 5 µs rather than 100 µs.
  const { sealed: first, idempotencyKey } = pool[0]!
  const input: EnvelopeInput = {
    handshake,
    raw: toBase64Url(raw),
    expiresAt,
    method: METHOD,
    path: PATH,
    idempotencyKey,
    json: body,
    answer: sealAnswer(server, { method: METHOD, path: PATH, requestSign: first.sign, status: 200, type }, answerBytes, now),
    requestSign: first.sign,
  }
  const { page, errors, close } = await openBenchPage(ctx, {
    page: PAGE,
    outDir: path.join(ctx.outDir, 'pages-envelope'),
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
  })
  const appRuns: number[][] = []
  let isolated = false
  try {
    const runPage = async (n: number) => (await page.evaluate(`window.nadiEnvelopeBench.run(${JSON.stringify(input)}, ${n})`)) as EnvelopeResult
    await runPage(APP_WARM_UP)
    for (let r = 0; r < ctx.runs; r++) {
      const res = await runPage(APP_ITERATIONS)
      const opened = openRequest(server, { method: METHOD, path: PATH, idempotencyKey }, res.sealed)
      if (!Buffer.isBuffer(opened) || opened.toString() !== body) throw new Error('the server did not open what the app sealed to the same body')
      if (res.opened !== answer) throw new Error('the app did not open the server’s answer to the same text')
      isolated = res.crossOriginIsolated
      appRuns.push(res.micros)
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`)
  } finally {
    await close()
  }
  const inApp = spread(appRuns)
  ctx.log(`envelope: app (Chromium) p50 ${micros(inApp.p50.median)}, p99 ${micros(inApp.p99.median)} (${ctx.runs} × ${APP_ITERATIONS}, cross-origin isolated: ${isolated})`)

  const sizes = { bodyBytes: body.length, answerBytes: answer.length, sealedRequestBytes: JSON.stringify(first).length, sealedAnswerBytes: JSON.stringify(input.answer).length }
  const serverMethod = `openRequest + sealAnswer (server/http/sealCrypto.ts) of a placeOrder body sealed by the app's code and its answer, ${SERVER_ITERATIONS} per run after ${SERVER_WARM_UP} warm-up, each timed with performance.now(), iterations preempted by the OS (an involuntary context switch) left out and counted; p50/p99 per run, median over ${ctx.runs} runs`
  const appMethod = `sealRequest + openAnswer (src/api/sealCrypto.ts, WebCrypto) in Chromium (bench/pages/envelope.ts, cross-origin isolated: ${isolated}), ${APP_ITERATIONS} per run after ${APP_WARM_UP} warm-up, each timed in the page; p50/p99 per run, median over ${ctx.runs} runs; what each side sealed is opened by the other and compared`
  return [
    atMost({ name: 'envelope: server cost per request, p50 (open + seal a placeOrder)', value: onServer.p50.median, unit: 'µs', max: SERVER_P50_MAX_US, format: micros, details: { ...onServer.p50, ...sizes, preempted, method: serverMethod } }),
    atMost({ name: 'envelope: server cost per request, p99', value: onServer.p99.median, unit: 'µs', max: SERVER_P99_MAX_US, format: micros, details: { ...onServer.p99, preempted, method: serverMethod } }),
    atMost({ name: 'envelope: app cost per request, p50 (seal + open, Chromium)', value: inApp.p50.median, unit: 'µs', max: APP_P50_MAX_US, format: micros, details: { ...inApp.p50, ...sizes, method: appMethod } }),
    atMost({ name: 'envelope: app cost per request, p99 (Chromium)', value: inApp.p99.median, unit: 'µs', max: APP_P99_MAX_US, format: micros, details: { ...inApp.p99, method: appMethod } }),
  ]
}
