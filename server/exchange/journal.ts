// The book as the journal says it is: the newest snapshot, then every journaled command after it,
// replayed into a fresh engine. Used by the market at start and after an abandoned batch, and by the
// operator's `market check` to say where a journal stops replaying.

import { Engine, type Command, type EngineSink, type EngineSnapshot, type MarketSpec } from './engine/index.ts'
import type { Queryable } from '../db/query/types.ts'
import { EXCHANGE } from './statements.ts'

/**
 * The market cannot go on: its journal does not replay, or the replayed book disagrees with the
 * orders the database calls open. Carries the journal position so the log and the operator can find it.
 */
export class MarketFault extends Error {
  override name = 'MarketFault'
  constructor(
    message: string,
    /** The journal row where it happened (the refused command, or the last one replayed). */
    readonly journalSeq: bigint | null,
    /** The refused command as journaled, when a command was refused. */
    readonly command: string | null = null,
  ) {
    super(message)
  }
}

export interface Replayed {
  engine: Engine
  /** The snapshot replay started from (0 when none). */
  snapshotSeq: bigint
  /** The last journal row replayed (snapshotSeq when none came after it). */
  lastSeq: bigint
  /** The largest order id the journal placed. */
  lastOrderId: number
}

const QUIET: EngineSink = { accepted() {}, rejected() {}, fill() {}, done() {}, level() {} }

/**
 * Replays the journal of the market; throws MarketFault at the first row that does not apply. `q`: the
 * market writer's transaction while it serves (no batch commits between the reads), else any.
 */
export async function replayJournal(q: Queryable, spec: MarketSpec): Promise<Replayed> {
  const snap = await q.get(EXCHANGE.latestSnapshot, spec.instId)
  let engine: Engine
  try {
    engine = snap ? Engine.restore(JSON.parse(snap.body) as EngineSnapshot, spec) : new Engine(spec)
  } catch (e) {
    throw new MarketFault(`exchange: the snapshot at journal row ${snap!.seq} does not restore: ${(e as Error).message}`, snap!.seq)
  }
  const snapshotSeq = snap?.seq ?? 0n
  let lastSeq = snapshotSeq
  let lastOrderId = engine.lastOrderId
  for (const r of await q.all(EXCHANGE.journalAfter, spec.instId, snapshotSeq)) {
    let cmd: Command
    try {
      cmd = JSON.parse(r.command) as Command
    } catch {
      throw new MarketFault(`exchange: journal row ${r.seq} is not a command`, r.seq, r.command)
    }
    let reason = 'refused'
    const ok = engine.apply(cmd, { ...QUIET, rejected: (_c, why) => void (reason = why) })
    if (!ok) throw new MarketFault(`exchange: journal row ${r.seq} was refused on replay (${reason}): ${r.command}`, r.seq, r.command)
    if (cmd.kind === 'place') lastOrderId = Math.max(lastOrderId, cmd.orderId)
    lastSeq = r.seq
  }
  return { engine, snapshotSeq, lastSeq, lastOrderId }
}
