// Local chains for development, demos and tests: one anvil node per configured chain on 127.0.0.1
// (a free port each), a deterministic mnemonic, and the project's TestToken deployed as USDT and NADI
// on every one of them. Production never starts this (DESIGN §7).
//
// Lifetime: the nodes live exactly as long as their owner. `stop()` ends them (SIGTERM, then SIGKILL);
// a process 'exit' hook ends them when the server exits without stopping; and a tiny `sh` watchdog,
// holding the read end of a pipe whose write end only this process has, ends them when this process
// dies any other way (kill -9, a crash): the kernel closes the pipe, `read` returns and the watchdog
// sends SIGTERM. The nodes run in their own process group, so a terminal's Ctrl-C reaches the server
// alone, which then stops them in order (watchers first, nodes last).

import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import { Interface, JsonRpcProvider, Network, Wallet, getCreateAddress, toBeHex, type TransactionRequest } from 'ethers'
import { CHAIN_TOKENS, DEV_MNEMONIC, type ChainTokenSymbol } from '../config.ts'
import { freshArtifact } from './contracts.ts'

export interface DevChainsOptions {
  chains: { key: string; id: number }[]
  /** Seconds per block (interval mining); 0 = a block per transaction (automine); 'manual' = only evm_mine. Default 1. */
  blockTime?: number | 'manual'
  mnemonic?: string
  /** Accounts given native coin and tokens (18-decimal amounts) once the tokens are deployed. */
  fund?: ({ address: string; native?: bigint } & Partial<Record<ChainTokenSymbol, bigint>>)[]
  /** How long one node may take to listen. Default 10 s. */
  startTimeoutMs?: number
}

export interface DevChain {
  key: string
  id: number
  rpcUrl: string
  pid: number
  /** Checksummed token addresses (the same on every chain: the deployer's nonces 0, 1 and 2). */
  tokens: Record<ChainTokenSymbol, string>
}

export interface DevChains {
  chains: DevChain[]
  /** The key that deployed the tokens: the only one allowed to mint (the faucet). Anvil account 0. */
  deployerKey: string
  blockTime: number | 'manual'
  /** Ends the nodes; safe to call more than once. */
  stop(): Promise<void>
}

const TOKEN_NAMES: Record<ChainTokenSymbol, string> = { USDT: 'Tether USD (NADI dev)', NADI: 'NADI (dev)', MEME: 'MEME (NADI dev)' }
const DEPLOY_GAS = 1_500_000n
const MINT_GAS = 120_000n

/** Every node and watchdog started here and not yet stopped, so the exit hook can end them. */
const liveNodes = new Set<ChildProcess>()
const liveWatchdogs = new Set<ChildProcess>()
let exitHook = false

function installExitHook(): void {
  if (exitHook) return
  exitHook = true
  process.on('exit', () => {
    // Watchdogs first (SIGKILL: they must not signal a pid that may be reused), then the nodes.
    for (const c of liveWatchdogs) c.kill('SIGKILL')
    for (const c of liveNodes) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM')
  })
}

/** The anvil binary of @foundry-rs/anvil's platform package (NADI_ANVIL_BIN overrides it). */
export function anvilBinary(): string {
  const override = process.env.NADI_ANVIL_BIN
  if (override) return override
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  try {
    const bin = createRequire(import.meta.url).resolve(`${pkg}/bin/${exe}`)
    if (fs.existsSync(bin)) return bin
  } catch {
    // not installed for this platform: fall through
  }
  throw new Error(`No anvil binary: ${pkg} is not installed (npm install @foundry-rs/anvil), or set NADI_ANVIL_BIN`)
}

function unrefStreams(child: ChildProcess): void {
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as Socket | null)?.unref?.()
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

async function kill(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.ref() // keep this process alive until the node is gone
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited(child)
    clearTimeout(timer)
  }
  liveNodes.delete(child)
  liveWatchdogs.delete(child)
}

interface Node {
  child: ChildProcess
  port: number
}

/** Starts one anvil and resolves once it prints its address; rejects with its output if it fails. */
function spawnAnvil(bin: string, chainId: number, mnemonic: string, blockTime: number | 'manual', timeoutMs: number): Promise<Node> {
  const mining = blockTime === 'manual' ? ['--no-mining'] : blockTime > 0 ? ['--block-time', String(blockTime)] : []
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId), '--mnemonic', mnemonic, '--accounts', '10', ...mining]
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  liveNodes.add(child)
  installExitHook()
  // Anvil logs every call; keep reading (a full pipe would block it) and keep the tail for errors.
  let tail = ''
  let port = 0
  return new Promise<Node>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      void kill(child)
      reject(new Error(`anvil (chain ${chainId}) ${why}${tail ? `:\n${tail.slice(-2000)}` : ''}`))
    }
    const onData = (d: Buffer) => {
      tail = (tail + d.toString('utf8')).slice(-4000)
      if (port) return
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(tail)
      if (m) {
        port = Number(m[1])
        clearTimeout(timer)
        child.off('exit', onExit)
        child.unref()
        unrefStreams(child)
        resolve({ child, port })
      }
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited before listening (code ${code}, signal ${signal})`)
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs)
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', onExit)
    child.once('error', (err) => fail(`could not start (${err.message})`))
  })
}

/** A watchdog that SIGTERMs `pids` when this process dies, however it dies (see the top of the file). */
function spawnWatchdog(pids: number[]): ChildProcess | null {
  if (process.platform === 'win32' || pids.length === 0) return null
  const child = spawn('/bin/sh', ['-c', 'read -r _; kill -TERM "$@" 2>/dev/null', 'nadi-anvil-watchdog', ...pids.map(String)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  })
  liveWatchdogs.add(child)
  child.unref()
  unrefStreams(child)
  return child
}

async function waitForChainId(provider: JsonRpcProvider, id: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const got = Number(await provider.send('eth_chainId', []))
      if (got !== id) throw new Error(`answers chain id ${got}, expected ${id}`)
      return
    } catch (err) {
      if (Date.now() > deadline || (err instanceof Error && err.message.startsWith('answers'))) throw err
      await new Promise((r) => setTimeout(r, 25))
    }
  }
}

/**
 * Deploys USDT, NADI and MEME from the deployer's next nonces, funds the given accounts, and mines it all
 * in one block. Every transaction has an explicit gas limit and nonce: nothing waits on an estimate
 * against a contract that is not mined yet.
 */
async function deploy(
  provider: JsonRpcProvider,
  deployer: Wallet,
  artifact: { abi: unknown[]; bytecode: string },
  fund: NonNullable<DevChainsOptions['fund']>,
  blockTime: number | 'manual',
): Promise<Record<ChainTokenSymbol, string>> {
  const iface = new Interface(artifact.abi as string[])
  const fee = { maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
  let nonce = await provider.getTransactionCount(deployer.address, 'pending')
  const txs: TransactionRequest[] = []
  const tokens = {} as Record<ChainTokenSymbol, string>
  for (const sym of CHAIN_TOKENS) {
    tokens[sym] = getCreateAddress({ from: deployer.address, nonce: nonce + txs.length })
    txs.push({ data: artifact.bytecode + iface.encodeDeploy([TOKEN_NAMES[sym], sym]).slice(2), gasLimit: DEPLOY_GAS })
  }
  for (const f of fund) {
    for (const sym of CHAIN_TOKENS) {
      const amount = f[sym]
      if (amount && amount > 0n) txs.push({ to: tokens[sym], data: iface.encodeFunctionData('mint', [f.address, amount]), gasLimit: MINT_GAS })
    }
    if (f.native && f.native > 0n) {
      const have = await provider.getBalance(f.address)
      if (have < f.native) await provider.send('anvil_setBalance', [f.address, toBeHex(f.native)])
    }
  }
  const hashes: string[] = []
  for (const tx of txs) {
    const signed = await deployer.signTransaction({ ...tx, ...fee, nonce: nonce++, chainId: (await provider.getNetwork()).chainId, type: 2 })
    hashes.push(await provider.send('eth_sendRawTransaction', [signed]))
  }
  if (blockTime !== 0) await provider.send('evm_mine', [])
  for (const h of hashes) {
    const r = await provider.getTransactionReceipt(h)
    if (!r || r.status !== 1) throw new Error(`dev chain setup transaction ${h} ${r ? 'reverted' : 'was not mined'}`)
  }
  return tokens
}

/** Starts the nodes, deploys the tokens and funds the accounts; about a second for two chains. */
export async function startDevChains(opts: DevChainsOptions): Promise<DevChains> {
  const blockTime = opts.blockTime ?? 1
  const mnemonic = opts.mnemonic ?? DEV_MNEMONIC
  const timeoutMs = opts.startTimeoutMs ?? 10_000
  const deployerKey = Wallet.fromPhrase(mnemonic).privateKey // m/44'/60'/0'/0/0: anvil account 0
  const [artifact, bin] = await Promise.all([freshArtifact('TestToken'), Promise.resolve().then(anvilBinary)])

  const started = await Promise.allSettled(opts.chains.map((c) => spawnAnvil(bin, c.id, mnemonic, blockTime, timeoutMs)))
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const watchdog = spawnWatchdog(nodes.map((n) => n.child.pid ?? 0).filter((p) => p > 0))

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      // The watchdog first, so it can never signal a pid after its node is gone.
      if (watchdog) {
        watchdog.ref()
        watchdog.kill('SIGKILL')
        await exited(watchdog)
        liveWatchdogs.delete(watchdog)
      }
      await Promise.all(nodes.map((n) => kill(n.child)))
    })())

  const providers: JsonRpcProvider[] = []
  try {
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed) throw failed.reason
    const chains = await Promise.all(
      opts.chains.map(async (c, i) => {
        const node = nodes[i]!
        const rpcUrl = `http://127.0.0.1:${node.port}`
        const network = Network.from(c.id)
        const provider = new JsonRpcProvider(rpcUrl, network, { staticNetwork: network, cacheTimeout: -1 })
        providers.push(provider)
        await waitForChainId(provider, c.id, timeoutMs)
        const tokens = await deploy(provider, new Wallet(deployerKey, provider), artifact, opts.fund ?? [], blockTime)
        return { key: c.key, id: c.id, rpcUrl, pid: node.child.pid!, tokens }
      }),
    )
    return { chains, deployerKey, blockTime, stop }
  } catch (err) {
    await stop()
    throw err
  } finally {
    for (const p of providers) p.destroy()
  }
}
