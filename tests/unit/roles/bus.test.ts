import { describe, expect, it } from 'vitest'
import { familyOf, LocalBus, parseEnvelope, parseStoredPayload, SequenceTracker, topicFamily } from '../../../server/roles/bus.ts'

describe('topics', () => {
  it('a topic is its family and an optional rest after : @ or #', () => {
    expect(topicFamily('books:NADI-USDT')).toBe('books')
    expect(topicFamily('candle1m:NADI-USDT')).toBe('candle1m')
    expect(topicFamily('user@update_order#42')).toBe('user')
    expect(topicFamily('ranking')).toBe('ranking')
  })

  it('anything else is not a topic: upper case, spaces, quotes, empty, too long', () => {
    for (const bad of ['', 'Books:X', 'books X', 'books:a b', '"; DROP', '1books', 'books:' + 'x'.repeat(121), 'a'.repeat(32), 'books.x']) {
      expect(topicFamily(bad), bad).toBeNull()
    }
    expect(() => familyOf('no such topic')).toThrow(/not a bus topic/)
  })
})

describe('LocalBus', () => {
  it('delivers synchronously, in publish order, only to the topic subscribed', () => {
    const bus = new LocalBus()
    const got: string[] = []
    bus.subscribe('books:A', (p) => got.push(`A${(p as { n: number }).n}`))
    bus.subscribe('books:B', (p) => got.push(`B${(p as { n: number }).n}`))
    bus.publish('books:A', { n: 1 })
    bus.publish('books:B', { n: 2 })
    bus.publish('books:A', { n: 3 })
    bus.publish('books:C', { n: 4 })
    expect(got).toEqual(['A1', 'B2', 'A3'])
  })

  it('hands the payload itself to every subscriber (nothing is serialized in one process)', () => {
    const bus = new LocalBus()
    const payload = { data: [1] }
    const seen: unknown[] = []
    bus.subscribe('ranking', (p) => seen.push(p))
    bus.subscribe('ranking', (p) => seen.push(p))
    bus.publish('ranking', payload)
    expect(seen).toEqual([payload, payload])
    expect(seen[0]).toBe(payload)
  })

  it('an unsubscribe stops delivery at once, also one made by another subscriber during delivery', () => {
    const bus = new LocalBus()
    const got: string[] = []
    let offB: () => void = () => {}
    bus.subscribe('user@balance#1', () => {
      got.push('a')
      offB()
    })
    offB = bus.subscribe('user@balance#1', () => got.push('b'))
    bus.publish('user@balance#1', {})
    bus.publish('user@balance#1', {})
    // The delivery in progress keeps the subscribers it started with; the next one has lost b.
    expect(got).toEqual(['a', 'b', 'a'])
  })

  it('the same function subscribed twice is two subscriptions, each undone by its own unsubscribe', () => {
    const bus = new LocalBus()
    let n = 0
    const fn = () => n++
    const off1 = bus.subscribe('ranking', fn)
    bus.subscribe('ranking', fn)
    bus.publish('ranking', {})
    off1()
    off1()
    bus.publish('ranking', {})
    expect(n).toBe(3)
  })

  it('is not shared, and refuses a topic it could not carry', () => {
    const bus = new LocalBus()
    expect(bus.shared).toBe(false)
    expect(() => bus.subscribe('Not a topic', () => {})).toThrow(/not a bus topic/)
  })
})

describe('parseEnvelope: what arrives from another process is checked', () => {
  const good = { o: '0123456789abcdef', s: 1, t: 'books:NADI-USDT', p: { arg: {} } }
  const text = (v: unknown) => JSON.stringify(v)

  it('accepts an envelope with a payload, or with the row of a big one', () => {
    expect(parseEnvelope(text(good), 'books')).toEqual({ ok: true, env: good })
    const big = { o: good.o, s: 2, t: good.t, r: 17 }
    expect(parseEnvelope(text(big), 'books')).toEqual({ ok: true, env: big })
  })

  it.each([
    ['not JSON', '{"o":', 'not JSON'],
    ['an array', '[1]', 'not an object'],
    ['null', 'null', 'not an object'],
    ['a bad origin', text({ ...good, o: 'ZZ' }), 'bad origin'],
    ['a missing origin', text({ s: 1, t: good.t, p: {} }), 'bad origin'],
    ['a zero sequence', text({ ...good, s: 0 }), 'bad sequence'],
    ['a fractional sequence', text({ ...good, s: 1.5 }), 'bad sequence'],
    ['a sequence as text', text({ ...good, s: '1' }), 'bad sequence'],
    ['a topic of another family', text({ ...good, t: 'user@balance#1' }), 'topic not of books'],
    ['a topic that is no topic', text({ ...good, t: 'books: x' }), 'topic not of books'],
    ['both payload and row', text({ ...good, r: 3 }), 'needs exactly one of payload and row'],
    ['neither payload nor row', text({ o: good.o, s: 1, t: good.t }), 'needs exactly one of payload and row'],
    ['a negative row', text({ o: good.o, s: 1, t: good.t, r: -3 }), 'bad row id'],
    ['a scalar payload', text({ ...good, p: 5 }), 'payload is not an object or array'],
    ['a null payload', text({ ...good, p: null }), 'payload is not an object or array'],
  ])('refuses %s', (_name, raw, why) => {
    expect(parseEnvelope(raw, 'books')).toEqual({ ok: false, why })
  })

  it('a big message read back must be an object or an array', () => {
    expect(parseStoredPayload('{"a":1}')).toEqual({ a: 1 })
    expect(parseStoredPayload('[1]')).toEqual([1])
    expect(parseStoredPayload('7')).toBeNull()
    expect(parseStoredPayload('{')).toBeNull()
  })
})

describe('SequenceTracker', () => {
  it('a publisher first seen sets its place; the next number is next, a jump is a gap, an old one a repeat', () => {
    const t = new SequenceTracker()
    expect(t.see('nadi_books', 'aa', 7)).toBe('next')
    expect(t.see('nadi_books', 'aa', 8)).toBe('next')
    expect(t.see('nadi_books', 'aa', 10)).toBe('gap')
    expect(t.see('nadi_books', 'aa', 11)).toBe('next')
    expect(t.see('nadi_books', 'aa', 9)).toBe('repeat')
    expect(t.see('nadi_books', 'aa', 11)).toBe('repeat')
  })

  it('publishers and channels are counted apart', () => {
    const t = new SequenceTracker()
    t.see('nadi_books', 'aa', 1)
    expect(t.see('nadi_books', 'bb', 5)).toBe('next')
    expect(t.see('nadi_user', 'aa', 9)).toBe('next')
    expect(t.see('nadi_books', 'aa', 2)).toBe('next')
  })

  it('a channel forgotten starts over (listened afresh), others keep their place', () => {
    const t = new SequenceTracker()
    t.see('nadi_books', 'aa', 1)
    t.see('nadi_user', 'aa', 1)
    t.forget('nadi_books')
    expect(t.see('nadi_books', 'aa', 5)).toBe('next')
    expect(t.see('nadi_user', 'aa', 5)).toBe('gap')
  })
})
