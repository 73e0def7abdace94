// The deposit watcher (DESIGN §7, issue 4 part 3): finds token transfers to the users' deposit
// addresses, follows their confirmations, credits each one once, and never one a reorg removed.
//
// Each pass, per chain (a chain that fails is logged and retried next pass; the others go on):
//
// 1. Read the head. Read the Transfer logs of every configured token to the addresses handed out
//    (deposit_addresses, whichever chain they were asked for) from the cursor on — and, every pass,
//    the last `reorgWindow` blocks again, so a block replaced since the last pass is read as it is
//    now. If the block the cursor points at has another hash than when it was read, the reorg is
//    deeper than that: re-read 4 windows back.
// 2. Record each log, keyed UNIQUE on (chain, tx hash, log index), with its block number and hash.
//    A log seen again changes nothing, unless it now sits in another block or was dropped (its
//    transaction was mined again after a reorg): then it confirms again from that block.
// 3. For every deposit still confirming: if the hash of its block is no longer the one it was seen in
//    (replaced, or the chain is now shorter), it is dropped. Otherwise its confirmations are
//    head − block + 1; at the chain's required count (config, default 3) the block hash is read once
//    more and, still the same, the deposit is credited in one transaction with its ledger posting
//    custody:<chain> → the user's fund account, ref `deposit:<chain>:<tx>:<logIndex>` — so even a
//    deposit record written twice could not post twice.
// 4. Save the cursor (the last block read and its hash).
//
// Token amounts are credited floored to 1e-8 (./units.ts); a transfer worth less than 1e-8 is ignored.
// A deposit is credited only after its block has `confirmations` blocks on it; a reorg deeper than
// that after the credit cannot be undone here: it is logged as an error for an operator.

import type { Selectable } from 'kysely'
import type { Deposit } from '../../contract/recharge.ts'
import { TOKENS, type ChainSettings, type Config } from '../config.ts'
import type { Ctx } from '../context.ts'
import type { Tx } from '../db/query/types.ts'
import type { DepositsTable } from '../db/schema.ts'
import { startJobs } from '../jobs/scheduler.ts'
import * as ledger from '../ledger/index.ts'
import { depositToWire } from '../modules/recharge/service.ts'
import type { TransferLog } from './gateway.ts'
import { toLedgerUnits } from './units.ts'

export interface WatcherSettings {
  /** Milliseconds between passes: NADI_DEPOSIT_POLL_MS (1 s with dev chains, else 5 s). */
  pollMs: number
  /** Blocks re-read on every pass, to see replaced blocks: NADI_DEPOSIT_REORG_WINDOW (12). */
  reorgWindow: number
  /** Most blocks one pass reads per chain (catching up after a stop takes several passes). */
  maxBlocksPerPass: number
}

/** The watcher's settings, from config.deposits. */
export function watcherSettings(config: Config): WatcherSettings {
  return { pollMs: config.deposits.pollMs, reorgWindow: config.deposits.reorgWindow, maxBlocksPerPass: config.chain.logRange * 5 }
}

/** Where a chain is read from the first time: its configured start block, 0 on dev chains, else the last window. */
function startBlock(ctx: Ctx, c: ChainSettings, head: number, s: WatcherSettings): number {
  const configured = ctx.config.deposits.startBlocks[c.key]
  if (configured !== undefined) return configured
  return ctx.chain.isDev ? 0 : Math.max(0, head - s.reorgWindow + 1)
}

// ── Pushes ──────────────────────────────────────────────────────────────────────────────────────

/** A deposit appeared, gained a confirmation, was credited or was dropped. */
export interface DepositEvent {
  userId: number
  deposit: Deposit
}
export type DepositListener = (event: DepositEvent) => void

const listeners = new WeakMap<Ctx, Set<DepositListener>>()

/**
 * The hook for the socket's `user@deposit` stream (DESIGN §5), called after each change is committed.
 * Not wired yet; in server/app.ts, once the hub can push to one user:
 *
 *   onDeposit(ctx, ({ userId, deposit }) => hub.pushToUser(userId, 'user@deposit', deposit))
 *
 * Returns a function that removes the listener.
 */
export function onDeposit(ctx: Ctx, listener: DepositListener): () => void {
  let set = listeners.get(ctx)
  if (!set) listeners.set(ctx, (set = new Set()))
  set.add(listener)
  return () => void set.delete(listener)
}

async function emit(ctx: Ctx, ids: Set<bigint>): Promise<void> {
  const set = listeners.get(ctx)
  if (!set?.size || ids.size === 0) return
  const found = await ctx.sql.rows(ctx.db.selectFrom('deposits').selectAll().where('id', 'in', [...ids]))
  for (const r of found) {
    const event = { userId: Number(r.user_id), deposit: depositToWire(r) }
    for (const l of set) {
      try {
        l(event)
      } catch (err) {
        ctx.log.error({ err }, 'deposit listener failed')
      }
    }
  }
}

// ── One pass ────────────────────────────────────────────────────────────────────────────────────

export interface ChainPass {
  chain: string
  head: number
  /** The block range read, inclusive; null when there was nothing to read. */
  from: number | null
  to: number | null
  /** Logs read (each pass re-reads the reorg window, so a log is usually read several times). */
  logs: number
  recorded: number
  credited: number
  dropped: number
}

type DepositRow = Selectable<DepositsTable>

const settingsOf = new WeakMap<Ctx, WatcherSettings>()
const inFlight = new WeakMap<Ctx, Promise<ChainPass[]>>()

/** The chains the watcher can read: an RPC URL and the deposit key (tokens are checked per token). */
function watchedChains(ctx: Ctx): ChainSettings[] {
  return ctx.chain.chains().filter((c) => ctx.chain.missing(c.key, ['rpc', 'depositKey']).length === 0)
}

/**
 * One pass over every watched chain. Passes never overlap: a call made during a pass (the job's tick,
 * a test) runs after it.
 */
export function scanDeposits(ctx: Ctx): Promise<ChainPass[]> {
  const prev = inFlight.get(ctx) ?? Promise.resolve([])
  const next = prev.catch(() => []).then(() => passAll(ctx))
  inFlight.set(ctx, next)
  return next
}

async function passAll(ctx: Ctx): Promise<ChainPass[]> {
  let s = settingsOf.get(ctx)
  if (!s) settingsOf.set(ctx, (s = watcherSettings(ctx.config)))
  const out: ChainPass[] = []
  for (const c of watchedChains(ctx)) {
    try {
      out.push(await passChain(ctx, c, s))
    } catch (err) {
      ctx.log.warn({ err, chain: c.key }, 'deposit watcher: pass failed, retried next tick')
    }
  }
  return out
}

async function passChain(ctx: Ctx, c: ChainSettings, s: WatcherSettings): Promise<ChainPass> {
  const gw = ctx.chain
  const { db } = ctx
  const pass: ChainPass = { chain: c.key, head: 0, from: null, to: null, logs: 0, recorded: 0, credited: 0, dropped: 0 }
  const changed = new Set<bigint>()
  const head = await gw.blockNumber(c.key)
  pass.head = head

  // 1. The range to read.
  const cursor = await db.selectFrom('deposit_cursors').selectAll().where('chain', '=', c.key).executeTakeFirst()
  let from: number
  if (!cursor) from = startBlock(ctx, c, head, s)
  else {
    const last = Number(cursor.block)
    from = Math.min(last + 1, head - s.reorgWindow + 1)
    const now = last <= head ? await gw.blockHash(c.key, last) : null
    if (now !== cursor.block_hash) {
      from = Math.min(from, Math.min(last, head) - 4 * s.reorgWindow)
      ctx.log.warn({ chain: c.key, block: last, was: cursor.block_hash, now }, 'deposit watcher: the last block read was replaced; re-reading further back')
    }
  }
  from = Math.max(0, from)
  const to = Math.min(head, from + s.maxBlocksPerPass - 1)

  // 2. Read and record.
  if (from <= to) {
    pass.from = from
    pass.to = to
    const toHash = await gw.blockHash(c.key, to) // before the logs: a later replacement shows next pass
    // Every address handed out, whichever chain it was asked for: one key gives a user the same address
    // on every EVM chain, so a deposit sent on the other chain arrives too, and is credited as that chain's.
    const owners = new Map<string, bigint>()
    for (const a of await db.selectFrom('deposit_addresses').select(['user_id', 'address']).distinct().execute()) {
      owners.set(a.address.toLowerCase(), a.user_id)
    }
    const logs: TransferLog[] = []
    if (owners.size > 0) {
      for (const token of TOKENS) {
        if (!c.tokens[token]) continue
        logs.push(...(await gw.transferLogs(c.key, token, from, to, [...owners.keys()])))
      }
    }
    pass.logs = logs.length
    const now = ctx.now()
    await ctx.sql.transaction(async (tx) => {
      for (const log of logs) {
        const userId = owners.get(log.to.toLowerCase())
        const amount = toLedgerUnits(log.amount, 'floor')
        if (userId === undefined || amount === 0n) continue
        const txHash = log.txHash.toLowerCase()
        const key = db.selectFrom('deposits').selectAll().where('chain', '=', c.key).where('tx_hash', '=', txHash).where('log_index', '=', BigInt(log.logIndex))
        const existing = await tx.row(key)
        if (!existing) {
          const inserted = await tx.row(
            db
              .insertInto('deposits')
              .values({
                user_id: userId,
                chain: c.key,
                coin: log.token,
                tx_hash: txHash,
                log_index: BigInt(log.logIndex),
                block_number: BigInt(log.blockNumber),
                block_hash: log.blockHash,
                from_address: log.from,
                to_address: log.to,
                amount,
                amount_wei: log.amount.toString(),
                confirmations: BigInt(Math.min(Math.max(0, head - log.blockNumber + 1), c.confirmations)),
                required: BigInt(c.confirmations),
                status: 'confirming',
                created_at: BigInt(now),
                updated_at: BigInt(now),
                credited_at: null,
              })
              // Another pass recorded it since our read (two jobs processes a moment apart): it is that one's.
              .onConflict((oc) => oc.columns(['chain', 'tx_hash', 'log_index']).doNothing())
              .returning('id'),
          )
          if (!inserted) continue
          changed.add(inserted.id)
          pass.recorded++
        } else if (existing.status === 'credited') {
          if (existing.block_hash !== log.blockHash) {
            ctx.log.error(
              { chain: c.key, tx: txHash, logIndex: log.logIndex, creditedIn: existing.block_hash, nowIn: log.blockHash },
              'deposit watcher: a credited deposit moved to another block (a reorg deeper than its confirmations); check it',
            )
          }
        } else if (existing.status === 'dropped' || existing.block_hash !== log.blockHash) {
          // Seen on the chain as it is now, in another block (its transaction was mined again after a
          // reorg) or after it was dropped: it confirms again from there.
          await tx.exec(
            db
              .updateTable('deposits')
              .set({ block_number: BigInt(log.blockNumber), block_hash: log.blockHash, status: 'confirming', confirmations: 0n, updated_at: BigInt(now) })
              .where('id', '=', existing.id),
          )
          changed.add(existing.id)
        }
      }
      if (toHash !== null) {
        await tx.exec(
          db
            .insertInto('deposit_cursors')
            .values({ chain: c.key, block: BigInt(to), block_hash: toHash, updated_at: BigInt(now) })
            .onConflict((oc) => oc.column('chain').doUpdateSet({ block: BigInt(to), block_hash: toHash, updated_at: BigInt(now) })),
        )
      }
    })
  }

  // 3. Confirm, credit or drop what is still confirming.
  const confirming = await db
    .selectFrom('deposits')
    .selectAll()
    .where('chain', '=', c.key)
    .where('status', '=', 'confirming')
    .orderBy('block_number')
    .orderBy('id')
    .execute()
  const count = (id: bigint, what: 'credited' | 'dropped') => {
    changed.add(id)
    pass[what]++
  }
  const hashes = new Map<number, string | null>()
  for (const d of confirming) {
    const block = Number(d.block_number)
    if (!hashes.has(block)) hashes.set(block, await gw.blockHash(c.key, block))
    const hash = hashes.get(block)
    // A block at or below the head the node cannot find: a lagging node, not a verdict. Next pass.
    if (hash === null && block <= head) continue
    if (hash !== d.block_hash) {
      if (await drop(ctx, d)) count(d.id, 'dropped')
      continue
    }
    const confirmations = Math.max(0, head - block + 1)
    const required = Number(d.required)
    if (confirmations >= required) {
      // Once more, right before the credit: nothing awaits between this read and the commit.
      const fresh = await gw.blockHash(c.key, block)
      if (fresh === null) continue
      if (fresh !== d.block_hash) {
        hashes.set(block, fresh)
        if (await drop(ctx, d)) count(d.id, 'dropped')
        continue
      }
      if (await credit(ctx, d, required)) count(d.id, 'credited')
    } else if (BigInt(confirmations) !== d.confirmations) {
      const n = await ctx.sql.exec(
        db
          .updateTable('deposits')
          .set({ confirmations: BigInt(confirmations), updated_at: BigInt(ctx.now()) })
          .where('id', '=', d.id)
          .where('status', '=', 'confirming')
          .where('block_hash', '=', d.block_hash),
      )
      if (n === 1) changed.add(d.id)
    }
  }

  await emit(ctx, changed)
  return pass
}

/** confirming → dropped: its block is not on the chain any more. */
async function drop(ctx: Ctx, d: DepositRow): Promise<boolean> {
  const n = await ctx.sql.exec(
    ctx.db
      .updateTable('deposits')
      .set({ status: 'dropped', updated_at: BigInt(ctx.now()) })
      .where('id', '=', d.id)
      .where('status', '=', 'confirming')
      .where('block_hash', '=', d.block_hash),
  )
  if (n === 1) ctx.log.warn({ chain: d.chain, tx: d.tx_hash, logIndex: Number(d.log_index), block: Number(d.block_number) }, 'deposit dropped: its block left the chain')
  return n === 1
}

/**
 * Posts one token transfer credited to a user's fund account, whichever path sees it first: the
 * deposit watcher, or a chain payment whose order ended before it confirmed (server/modules/payment).
 * Keyed (chain, tx hash, log index), the same posting whoever makes it, so the second one replays
 * it. False when that transfer was credited already with other content — to another user: the
 * payment receiving address is one of the users' deposit addresses, a misconfiguration — and nothing
 * is posted: crediting one transfer twice would make money.
 */
export async function creditTransfer(
  tx: Tx,
  t: { chain: string; txHash: string; logIndex: number | bigint; userId: bigint; asset: string; amount: bigint; at: number },
  onConflict: (difference: string) => void,
): Promise<boolean> {
  const txHash = t.txHash.toLowerCase()
  try {
    await ledger.transfer(tx, {
      ref: `deposit:${t.chain}:${txHash}:${t.logIndex}`,
      reason: 'deposit',
      userId: t.userId,
      from: ledger.custody(t.chain),
      to: ledger.fund(t.userId),
      asset: t.asset,
      amount: t.amount,
      at: t.at,
      meta: { chain: t.chain, tx_hash: txHash, log_index: Number(t.logIndex) },
    })
    return true
  } catch (err) {
    if (!(err instanceof ledger.RefConflict)) throw err
    onConflict(err.difference)
    return false
  }
}

/** confirming → credited, with the ledger posting, in one transaction. */
async function credit(ctx: Ctx, d: DepositRow, required: number): Promise<boolean> {
  const now = ctx.now()
  return ctx.sql.transaction(async (tx) => {
    const n = await tx.exec(
      ctx.db
        .updateTable('deposits')
        .set({ status: 'credited', confirmations: BigInt(required), credited_at: BigInt(now), updated_at: BigInt(now) })
        .where('id', '=', d.id)
        .where('status', '=', 'confirming')
        .where('block_hash', '=', d.block_hash),
    )
    if (n !== 1) return false
    const t = { chain: d.chain, txHash: d.tx_hash, logIndex: d.log_index, userId: d.user_id, asset: d.coin, amount: d.amount, at: now }
    await creditTransfer(tx, t, (difference) =>
      ctx.log.error({ chain: d.chain, tx: d.tx_hash, logIndex: Number(d.log_index), difference }, 'deposit already credited to the payer of a late chain payment'),
    )
    return true
  })
}

// ── The job ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Runs a pass every `pollMs` while any chain is watchable. The returned stop ends the timer and waits
 * for a pass in flight, so nothing reads a chain or the database after the server closes them.
 */
export function startDepositWatcher(ctx: Ctx, settings: WatcherSettings = watcherSettings(ctx.config)): () => Promise<void> {
  settingsOf.set(ctx, settings)
  if (watchedChains(ctx).length === 0) return async () => {}
  const stop = startJobs(ctx, [{ name: 'deposits', everyMs: settings.pollMs, run: scanDeposits }])
  return async () => {
    stop()
    await inFlight.get(ctx)?.catch(() => undefined)
  }
}
