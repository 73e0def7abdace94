import { describe, expect, it } from 'vitest'
import { electionStep, initialElection, type Effect, type ElectionEvent, type ElectionState } from '../../../server/roles/election.ts'

const T = { everyMs: 1000, timeoutMs: 3000 }

/** Runs events from a state; answers the last state and every effect in order. */
function run(events: ElectionEvent[], from: ElectionState = initialElection()) {
  let state = from
  const effects: Effect[] = []
  for (const e of events) {
    const s = electionStep(state, e, T)
    state = s.state
    effects.push(...s.effects)
  }
  return { state, effects }
}

/** Connected and leading at t=0. */
const leading = () => run([{ type: 'tick', now: 0 }, { type: 'connected', now: 0 }, { type: 'tried', got: true, now: 0 }]).state

describe('the election', () => {
  it('connects on the first tick, asks for the lock once connected, and leads when granted', () => {
    const r = run([{ type: 'tick', now: 0 }, { type: 'connected', now: 5 }, { type: 'tried', got: true, now: 10 }])
    expect(r.effects).toEqual(['connect', 'try', 'lead'])
    expect(r.state.phase).toBe('leading')
  })

  it('a standby asks again every tick while refused, one request at a time', () => {
    const r = run([
      { type: 'tick', now: 0 },
      { type: 'connected', now: 0 },
      { type: 'tick', now: 500 }, // the first request still out: nothing new
      { type: 'tried', got: false, now: 600 },
      { type: 'tick', now: 1000 },
      { type: 'tried', got: false, now: 1010 },
      { type: 'tick', now: 2000 },
    ])
    expect(r.effects).toEqual(['connect', 'try', 'try', 'try'])
    expect(r.state.phase).toBe('standby')
  })

  it('a leader heartbeats every tick and keeps leading while the answers come in time', () => {
    const r = run([{ type: 'tick', now: 1000 }, { type: 'pinged', now: 1100 }, { type: 'tick', now: 2000 }, { type: 'pinged', now: 2100 }], leading())
    expect(r.effects).toEqual(['ping', 'ping'])
    expect(r.state.phase).toBe('leading')
  })

  it('a leader whose connection fails stops the work at once, drops the connection, and runs again after everyMs', () => {
    const r = run([{ type: 'failed', now: 1500 }], leading())
    expect(r.effects).toEqual(['lose', 'drop'])
    expect(r.state).toMatchObject({ phase: 'connecting', waiting: null, retryAt: 2500 })
    expect(run([{ type: 'tick', now: 2000 }], r.state).effects).toEqual([])
    expect(run([{ type: 'tick', now: 2500 }], r.state).effects).toEqual(['connect'])
  })

  it('a heartbeat unanswered for longer than timeoutMs loses the leadership, not one answered just in time', () => {
    const pinging = run([1000, 2000, 3000, 4000].map((now) => ({ type: 'tick', now }) as const), leading()).state
    expect(pinging.waiting).toEqual({ on: 'ping', since: 1000 })
    const late = run([{ type: 'tick', now: 4001 }], pinging)
    expect(late.effects).toEqual(['lose', 'drop'])
    expect(late.state.phase).toBe('connecting')
    // The answer of the abandoned heartbeat, arriving afterwards, changes nothing.
    expect(run([{ type: 'pinged', now: 4002 }], late.state)).toEqual({ state: late.state, effects: [] })
  })

  it('a leader whose event loop was held (a long synchronous transaction) counts only the time it ran: a late answer is no loss', () => {
    const pinging = run([{ type: 'tick', now: 1000 }], leading()).state
    // The loop was busy from 1000 to 46,000: the answer may be waiting unread.
    const resumed = run([{ type: 'tick', now: 46_000 }], pinging)
    expect(resumed.effects).toEqual([])
    expect(run([{ type: 'pinged', now: 46_001 }, { type: 'tick', now: 47_000 }], resumed.state)).toMatchObject({ state: { phase: 'leading' }, effects: ['ping'] })
    // If it does not come, the time the loop runs afterwards still ends the leadership.
    const silent = run([47_000, 48_000, 49_000, 49_002].map((now) => ({ type: 'tick', now }) as const), resumed.state)
    expect(silent.effects).toEqual(['lose', 'drop'])
  })

  it('a connection that does not open in time, or a lock request that hangs, is dropped without a lead or a lose', () => {
    const seconds = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ type: 'tick', now: (from + i) * 1000 }) as const)
    const connecting = run(seconds(0, 3)).state
    expect(run([{ type: 'tick', now: 3001 }], connecting).effects).toEqual(['drop'])
    const asking = run([{ type: 'tick', now: 0 }, { type: 'connected', now: 0 }, ...seconds(1, 3)]).state
    const r = run([{ type: 'tick', now: 3001 }, { type: 'tried', got: true, now: 3002 }], asking)
    expect(r.effects).toEqual(['drop'])
    expect(r.state.phase).toBe('connecting')
  })

  it('a standby whose connection fails only drops it: it never led', () => {
    const standby = run([{ type: 'tick', now: 0 }, { type: 'connected', now: 0 }, { type: 'tried', got: false, now: 0 }]).state
    expect(run([{ type: 'failed', now: 10 }], standby).effects).toEqual(['drop'])
  })

  it('closing a leader stops the work before the connection (and the lock) ends; a closed candidate does nothing more', () => {
    const r = run([{ type: 'close' }], leading())
    expect(r.effects).toEqual(['lose', 'end'])
    expect(run([{ type: 'tick', now: 9000 }, { type: 'failed', now: 9001 }, { type: 'connected', now: 9002 }], r.state).effects).toEqual([])
    expect(run([{ type: 'close' }]).effects).toEqual(['end'])
  })

  it('a lock granted after the candidate gave up on the request is not a lead', () => {
    const standby = run([{ type: 'tick', now: 0 }, { type: 'connected', now: 0 }, { type: 'failed', now: 1 }]).state
    expect(run([{ type: 'tried', got: true, now: 2 }], standby).effects).toEqual([])
  })
})
