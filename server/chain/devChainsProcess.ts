// The chains process (`npm run chains`, server/chains.ts): the demo's two dev chains started once, in
// a process of their own, for servers that share them (NADI_DEV_CHAINS_URL, ./sharedDevChains.ts).
// It owns the nodes (they live and die with it, as with a server's own pair) and the deployer's key,
// the only one that mints; it funds the hot wallet at start, as a server's own pair does.
//
// Its HTTP, on this machine only by default (dev keys are public, and the faucet mints for anyone):
//   GET  /chains  the manifest: each chain's id, node URL, node pid and token addresses, the block time
//   POST /faucet  {chain, to, usdt?, nadi?, native?} (wei as decimal strings): mints, funds, answers once spendable

import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChainConfig } from '../config.ts'
import { createGateway, startOwnDevChains } from './gateway.ts'
import { parseFaucetRequest, type DevChainsManifest } from './sharedDevChains.ts'

type Logger = Parameters<typeof startOwnDevChains>[1]

export interface ChainsProcess {
  /** Where it answers: what the other processes get as NADI_DEV_CHAINS_URL. */
  url: string
  manifest: DevChainsManifest
  /** Stops answering, then ends the nodes. */
  close(): Promise<void>
}

/** A faucet request's body is a few short fields. */
const BODY_LIMIT = 4096

export async function serveDevChains(cc: ChainConfig, log: Logger, listen: { host: string; port: number }): Promise<ChainsProcess> {
  if (cc.devChainsUrl) throw new Error('NADI_DEV_CHAINS_URL is set: it points at a chains process; the chains process itself starts them (unset it here)')
  const { dev, networks, hotWallet } = await startOwnDevChains(cc, log)
  const gw = createGateway({ networks, hotWalletKey: null, depositXkey: null, logRange: cc.logRange, dev })
  const manifest: DevChainsManifest = {
    blockTime: dev.blockTime,
    hotWallet,
    chains: dev.chains.map(({ key, id, rpcUrl, pid, tokens }) => ({ key, id, rpcUrl, pid, tokens })),
  }
  const keys = new Set(manifest.chains.map((c) => c.key))

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      res.end(JSON.stringify(body))
    }
    const path = (req.url ?? '').split('?')[0]
    if (req.method === 'GET' && path === '/chains') return send(200, manifest)
    if (req.method !== 'POST' || path !== '/faucet') return send(404, { error: 'the chains process answers GET /chains and POST /faucet' })
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > BODY_LIMIT) {
        send(413, { error: `a faucet request is at most ${BODY_LIMIT} bytes` })
        req.destroy()
      } else chunks.push(c)
    })
    req.on('end', () => {
      let body: unknown
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return send(400, { error: 'the body is not JSON' })
      }
      const ask = parseFaucetRequest(body, keys)
      if ('error' in ask) return send(400, ask)
      gw.faucet(ask.chain, ask.to, ask.amounts).then(
        () => send(200, { chain: ask.chain, to: ask.to }),
        (err: unknown) => {
          log.error({ err, chain: ask.chain, to: ask.to }, 'faucet failed')
          send(502, { error: err instanceof Error ? err.message : String(err) })
        },
      )
    })
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(listen.port, listen.host, () => resolve())
    })
  } catch (err) {
    await gw.close()
    throw err
  }
  const { port } = server.address() as AddressInfo
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
  let closing: Promise<void> | null = null
  return {
    url: `http://${host}:${port}`,
    manifest,
    close: () =>
      (closing ??= (async () => {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await gw.close()
      })()),
  }
}
