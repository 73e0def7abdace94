import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { bookChecksum, isBookData } from '../../../contract/bookChecksum.ts'
import { parseMoney } from '../../../contract/money.ts'
import type { BookData, BookLevel, Side } from '../../../contract/trade.ts'
import { applyBookMessage as applyInApp, type LocalBook as AppBook } from '../../../src/api/socketBook.ts'
import { BookFeed } from '../../../server/exchange/marketData/bookFeed.ts'

/**
 * The app's own book applier (src/api/socketBook.ts), held the way subscribeBook holds it: the server
 * feed is proven against the code that really reads it. A refused message leaves the book as it was.
 */
class LocalBook {
  book: AppBook | null = null
  get seqId(): number | null {
    return this.book?.seqId ?? null
  }
  levels(side: 'asks' | 'bids'): BookLevel[] {
    return this.book?.[side] ?? []
  }
}
const newLocalBook = () => new LocalBook()
function applyBookMessage(local: LocalBook, msg: BookData): 'ok' | 'gap' | 'checksum' {
  // A level that is not an amount cannot be trusted: the client drops the book (subscribeBook skips it).
  if (!isBookData(msg)) return 'checksum'
  const step = applyInApp(local.book, msg.prevSeqId === -1 ? 'snapshot' : 'update', msg)
  if (step.ok) {
    local.book = step.book
    return 'ok'
  }
  return step.reason === 'checksum' ? 'checksum' : 'gap'
}

const U = 100_000_000n
const TICK = 10_000n // 0.0001 USDT

/** mulberry32: seeded, so a failing run replays from its seed. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An independent model of the book: plain maps, sorted only when read. */
class Model {
  asks = new Map<bigint, bigint>()
  bids = new Map<bigint, bigint>()
  set(side: Side, price: bigint, size: bigint) {
    const m = side === 'buy' ? this.bids : this.asks
    if (size === 0n) m.delete(price)
    else m.set(price, size)
  }
  levels(which: 'asks' | 'bids', n = Infinity): BookLevel[] {
    const entries = [...this[which]].sort((a, b) => (a[0] === b[0] ? 0 : (a[0] < b[0]) === (which === 'asks') ? -1 : 1))
    return entries.slice(0, n).map(([p, s]) => [text(p), text(s)])
  }
  checksum(): number {
    return bookChecksum(this.levels('bids', 25), this.levels('asks', 25))
  }
}

/** Units → decimal string, independent of formatMoney. */
function text(units: bigint): string {
  const frac = (units % U).toString().padStart(8, '0').replace(/0+$/, '')
  return frac ? `${units / U}.${frac}` : `${units / U}`
}

const wire = (msg: BookData): BookData => JSON.parse(JSON.stringify(msg)) as BookData
const localLevels = (b: LocalBook, which: 'asks' | 'bids'): BookLevel[] => b.levels(which)

describe('book feed against a rebuilt client book (seeded property test)', () => {
  it('a client rebuilt from the snapshot and every update matches the checksum at every step, seqIds are continuous, and a drop or a tampered size is caught', () => {
    const rnd = prng(0xb00c)
    const int = (n: number) => Math.floor(rnd() * n)
    const feed = new BookFeed()
    const model = new Model()
    let ts = Date.UTC(2024, 0, 1)

    const client = newLocalBook()
    expect(applyBookMessage(client, wire(feed.snapshot(ts)))).toBe('ok')
    expect(client.seqId).toBe(0)
    /** Subscribed late, then losing updates now and then. */
    let lossy: LocalBook | null = null
    let lossyMissed = false
    let lastSeq = 0
    let changes = 0
    let updates = 0
    let gaps = 0
    let tampers = 0
    let nulls = 0

    for (let batch = 0; changes < 4000; batch++) {
      ts += 1 + int(500)
      // A tampered copy is checked against a client holding exactly the book before this batch.
      const before = batch % 20 === 7 ? feed.snapshot(ts) : null
      const n = 1 + int(12)
      const touched: Array<[Side, bigint]> = []
      for (let k = 0; k < n; k++) {
        const side: Side = rnd() < 0.5 ? 'buy' : 'sell'
        // Re-touch a level of this batch now and then, so coalescing is exercised.
        const again = touched.length > 0 && rnd() < 0.25 ? touched[int(touched.length)] : undefined
        const price = again && again[0] === side ? again[1] : side === 'buy' ? 9000n * TICK - BigInt(int(150)) * TICK : 9001n * TICK + BigInt(int(150)) * TICK
        const size = rnd() < 0.35 ? 0n : BigInt(1 + int(1_000_000)) * BigInt(1 + int(100_000))
        feed.change(side, price, size)
        model.set(side, price, size)
        touched.push([side, price])
        changes++
      }
      const msg = feed.flush(ts)
      if (msg === null) {
        nulls++
        expect(feed.seqId).toBe(lastSeq)
        continue
      }
      updates++
      expect(msg.prevSeqId).toBe(lastSeq)
      expect(msg.seqId).toBe(lastSeq + 1)
      lastSeq = msg.seqId
      expect(msg.checksum).toBe(model.checksum())
      // Only levels whose final size differs are sent, each once, best first, removals as "0".
      for (const which of ['asks', 'bids'] as const) {
        const prices = msg[which].map((l) => l[0])
        expect(new Set(prices).size).toBe(prices.length)
        const sorted = [...msg[which]].sort((a, b) => (Number(a[0]) - Number(b[0])) * (which === 'asks' ? 1 : -1))
        expect(msg[which]).toEqual(sorted)
      }

      expect(applyBookMessage(client, wire(msg))).toBe('ok')
      expect(client.seqId).toBe(msg.seqId)
      expect(localLevels(client, 'asks')).toEqual(model.levels('asks'))
      expect(localLevels(client, 'bids')).toEqual(model.levels('bids'))

      if (before !== null) {
        const fresh = newLocalBook()
        expect(applyBookMessage(fresh, wire(before))).toBe('ok')
        // Tamper with a level that ends up in the top 25, so the checksum must see it.
        const top = new Set([...model.levels('asks', 25), ...model.levels('bids', 25)].map((l) => l[0]))
        const bad = wire(msg)
        const level = [...bad.asks, ...bad.bids].find((l) => top.has(l[0]))
        if (level) {
          level[1] = text((parseMoney(level[1]) as bigint) + 1n)
          expect(applyBookMessage(fresh, bad)).toBe('checksum')
          tampers++
        }
      }

      if (lossy === null) {
        if (batch >= 50) {
          lossy = newLocalBook()
          expect(applyBookMessage(lossy, wire(feed.snapshot(ts)))).toBe('ok')
        }
      } else if (lossyMissed) {
        // The update after a lost one is refused, the book kept; a resubscribe heals.
        const seqBefore = lossy.seqId
        expect(applyBookMessage(lossy, wire(msg))).toBe('gap')
        expect(lossy.seqId).toBe(seqBefore)
        gaps++
        lossyMissed = false
        lossy = newLocalBook()
        expect(applyBookMessage(lossy, wire(feed.snapshot(ts)))).toBe('ok')
        expect(localLevels(lossy, 'bids')).toEqual(model.levels('bids', 400))
      } else if (rnd() < 0.03) {
        lossyMissed = true
      } else {
        expect(applyBookMessage(lossy, wire(msg))).toBe('ok')
        expect(localLevels(lossy, 'asks')).toEqual(model.levels('asks'))
      }
    }

    expect(changes).toBeGreaterThanOrEqual(2000)
    expect(updates).toBeGreaterThan(300)
    expect(tampers).toBeGreaterThan(10)
    expect(gaps).toBeGreaterThan(0)
    // The final snapshot is the model, and depth is its top.
    const snap = feed.snapshot(ts)
    expect(snap.asks).toEqual(model.levels('asks', 400))
    expect(snap.bids).toEqual(model.levels('bids', 400))
    expect(feed.depth(5, ts)).toEqual({ asks: model.levels('asks', 5), bids: model.levels('bids', 5), ts, seqId: lastSeq })
    expect(nulls).toBeGreaterThan(0)
  })

  it('an update that skips a seqId is a gap and leaves the client book untouched', () => {
    const feed = new BookFeed()
    const client = newLocalBook()
    applyBookMessage(client, feed.snapshot(1))
    feed.change('buy', 100n * U, U)
    expect(applyBookMessage(client, feed.flush(2) as BookData)).toBe('ok')
    feed.change('buy', 100n * U, 2n * U)
    feed.flush(3) // lost
    feed.change('sell', 101n * U, U)
    const third = feed.flush(4) as BookData
    expect(third.prevSeqId).toBe(2)
    expect(applyBookMessage(client, third)).toBe('gap')
    expect(client.seqId).toBe(1)
    expect(client.levels('bids').slice(0, 10)).toEqual([['100', '1']])
    expect(client.levels('asks').length).toBe(0)
    // An update before any snapshot is a gap too.
    expect(applyBookMessage(newLocalBook(), third)).toBe('gap')
  })

  it('a tampered size, or a level that is not an amount, fails the checksum', () => {
    const feed = new BookFeed()
    feed.change('sell', 101n * U, U)
    feed.change('buy', 99n * U, U)
    feed.flush(1)
    const snap = feed.snapshot(2)
    feed.change('buy', 100n * U, 3n * U)
    const msg = feed.flush(3) as BookData
    const ok = newLocalBook()
    applyBookMessage(ok, snap)
    expect(applyBookMessage(ok, msg)).toBe('ok')
    const tampered = newLocalBook()
    applyBookMessage(tampered, snap)
    expect(applyBookMessage(tampered, { ...msg, bids: [['100', '3.00000001']] })).toBe('checksum')
    const garbage = newLocalBook()
    applyBookMessage(garbage, snap)
    expect(applyBookMessage(garbage, { ...msg, bids: [['100', '-3']] })).toBe('checksum')
    const badSnap = newLocalBook()
    expect(applyBookMessage(badSnap, { ...snap, checksum: snap.checksum ^ 1 })).toBe('checksum')
  })
})

describe('book feed batches', () => {
  it('several changes of one level in a batch go out once, with the final size', () => {
    const feed = new BookFeed()
    feed.change('buy', 50n * U, U)
    feed.change('buy', 50n * U, 3n * U)
    feed.change('sell', 60n * U, 2n * U)
    feed.change('buy', 50n * U, 5n * U)
    const msg = feed.flush(10) as BookData
    expect(msg).toMatchObject({ bids: [['50', '5']], asks: [['60', '2']], seqId: 1, prevSeqId: 0, ts: 10 })
  })

  it('a level added and removed in one batch, or set back to its size, sends nothing and keeps seqId', () => {
    const feed = new BookFeed()
    feed.change('buy', 50n * U, U)
    feed.flush(1)
    feed.change('sell', 60n * U, 2n * U)
    feed.change('sell', 60n * U, 0n)
    feed.change('buy', 50n * U, 7n * U)
    feed.change('buy', 50n * U, U)
    expect(feed.flush(2)).toBeNull()
    expect(feed.seqId).toBe(1)
    feed.change('buy', 50n * U, 0n)
    expect(feed.flush(3)).toMatchObject({ bids: [['50', '0']], asks: [], seqId: 2, prevSeqId: 1 })
    expect(feed.depth(10, 4)).toEqual({ asks: [], bids: [], ts: 4, seqId: 2 })
  })

  it('changed levels go out best first: asks ascending, bids descending', () => {
    const feed = new BookFeed()
    for (const p of [5n, 1n, 9n, 3n]) {
      feed.change('sell', p * U + 100n, U)
      feed.change('buy', p * U, U)
    }
    const msg = feed.flush(1) as BookData
    expect(msg.asks.map((l) => l[0])).toEqual(['1.000001', '3.000001', '5.000001', '9.000001'])
    expect(msg.bids.map((l) => l[0])).toEqual(['9', '5', '3', '1'])
  })

  it('a snapshot shows the book as of the last flush, never a half-applied batch', () => {
    const feed = new BookFeed({ startSeqId: 41 })
    feed.change('buy', 10n * U, U)
    feed.flush(1)
    feed.change('buy', 11n * U, U)
    const snap = feed.snapshot(2)
    expect(snap).toMatchObject({ bids: [['10', '1']], asks: [], seqId: 42, prevSeqId: -1, ts: 2 })
    const client = newLocalBook()
    expect(applyBookMessage(client, snap)).toBe('ok')
    expect(applyBookMessage(client, feed.flush(3) as BookData)).toBe('ok')
    expect(client.levels('bids').slice(0, 5)).toEqual([
      ['11', '1'],
      ['10', '1'],
    ])
  })

  it('a snapshot is cut at its depth but carries the checksum of the full top 25', () => {
    const feed = new BookFeed()
    for (let i = 1n; i <= 30n; i++) feed.change('sell', i * U, i)
    feed.flush(1)
    const snap = feed.snapshot(2, 3)
    // Depth below the checksum's 25 is raised, so the client can still verify it.
    expect(snap.asks).toHaveLength(25)
    expect(feed.snapshot(2, 400).asks).toHaveLength(30)
    expect(feed.depth(3, 2).asks).toEqual([
      ['1', '0.00000001'],
      ['2', '0.00000002'],
      ['3', '0.00000003'],
    ])
    expect(applyBookMessage(newLocalBook(), snap)).toBe('ok')
  })

  it('negative sizes and non-positive prices are refused', () => {
    const feed = new BookFeed()
    expect(() => feed.change('buy', U, -1n)).toThrow(RangeError)
    expect(() => feed.change('buy', 0n, U)).toThrow(RangeError)
    expect(feed.dirty).toBe(false)
  })
})

describe('client applier', () => {
  it('imports nothing but contract/, so the app bundle can take it', () => {
    const source = readFileSync(new URL('../../../server/exchange/marketData/bookLevels.ts', import.meta.url), 'utf8')
    const imports = [...source.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
    expect(imports.length).toBeGreaterThan(0)
    for (const spec of imports) expect(spec).toMatch(/^\.\.\/\.\.\/\.\.\/contract\//)
  })
})
