// The envelope's crypto runs once a turn of the event loop for both lanes (server/http/seal.ts
// cryptoTurn): every answer to seal and request to open queued in a turn is worked on back to back,
// then the answers leave, then the opened requests go on; a small batch waits a few turns for
// company while they bring more; a failing lane must not strand the other.
import { describe, expect, it } from 'vitest'
import { cryptoTurn, GATHER_BELOW } from '../../../server/http/seal.ts'

const nextTurn = () => new Promise<void>((r) => setImmediate(r))

/** A turn that only opens, recording each batch's size. */
function openSizes(opts?: Parameters<typeof cryptoTurn>[1]) {
  const sizes: number[] = []
  const turn = cryptoTurn<number, number>(
    {
      open: (batch) => {
        sizes.push(batch.length)
        return () => {}
      },
      seal: () => () => {},
    },
    opts,
  )
  return { sizes, turn }
}

describe('cryptoTurn', () => {
  it('takes both lanes of a turn together: all the work first, then the answers, then the requests', async () => {
    const log: string[] = []
    const turn = cryptoTurn<string, string>({
      open: (batch) => {
        log.push(`open work ${batch.join(',')}`)
        return () => batch.forEach((x) => log.push(`open go ${x}`))
      },
      seal: (batch) => {
        log.push(`seal work ${batch.join(',')}`)
        return () => batch.forEach((x) => log.push(`seal go ${x}`))
      },
    }, { gatherBelow: 0 })
    turn.open('r1')
    turn.seal('a1')
    turn.open('r2')
    turn.seal('a2')
    expect(log).toEqual([])
    await nextTurn()
    expect(log).toEqual(['seal work a1,a2', 'open work r1,r2', 'seal go a1', 'seal go a2', 'open go r1', 'open go r2'])

    // A lane with nothing queued is not called; what is queued during a flush waits for the next turn.
    log.length = 0
    turn.open('r3')
    await nextTurn()
    expect(log).toEqual(['open work r3', 'open go r3'])
  })

  it('an answer that fails to go leaves no opened request waiting', async () => {
    const went: string[] = []
    const turn = cryptoTurn<string, string>({
      open: (batch) => () => batch.forEach((x) => went.push(x)),
      seal: () => () => {
        throw new Error('the socket is gone')
      },
    }, { gatherBelow: 0 })
    const thrown = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve))
    turn.seal('a1')
    turn.open('r1')
    expect(await thrown).toMatchObject({ message: 'the socket is gone' })
    expect(went).toEqual(['r1'])
  })

  it('a batch smaller than gatherBelow waits a turn and takes what came meanwhile; alone, it waits once', async () => {
    const batches: string[] = []
    const turn = cryptoTurn<string, string>({
      open: (batch) => {
        batches.push(`open ${batch.join(',')}`)
        return () => {}
      },
      seal: (batch) => {
        batches.push(`seal ${batch.join(',')}`)
        return () => {}
      },
    }, { gatherBelow: 3 })
    turn.open('r1')
    turn.seal('a1')
    await nextTurn()
    expect(batches).toEqual([])
    // Queued during the wait: joins the batch, which is then as large as gatherBelow and goes.
    turn.open('r2')
    await nextTurn()
    expect(batches).toEqual(['seal a1', 'open r1,r2'])

    // Alone, and nothing else comes: it goes after the one turn all the same.
    batches.length = 0
    turn.seal('a2')
    await nextTurn()
    expect(batches).toEqual([])
    await nextTurn()
    expect(batches).toEqual(['seal a2'])

    // As many as gatherBelow: no wait.
    batches.length = 0
    turn.open('r3')
    turn.open('r4')
    turn.seal('a3')
    await nextTurn()
    expect(batches).toEqual(['seal a3', 'open r3,r4'])
  })

  it('by default a turn with fewer than GATHER_BELOW waits, and one with as many does not', async () => {
    const { sizes, turn } = openSizes()
    for (let i = 0; i < GATHER_BELOW - 1; i++) turn.open(i)
    await nextTurn()
    expect(sizes).toEqual([])
    await nextTurn()
    expect(sizes).toEqual([GATHER_BELOW - 1])
    for (let i = 0; i < GATHER_BELOW; i++) turn.open(i)
    await nextTurn()
    expect(sizes).toEqual([GATHER_BELOW - 1, GATHER_BELOW])
  })

  it('keeps waiting while each turn brings more, up to waitTurns turns', async () => {
    const { sizes, turn } = openSizes({ gatherBelow: 100, waitTurns: 3 })
    turn.open(1)
    await nextTurn()
    turn.open(2)
    await nextTurn()
    turn.open(3)
    await nextTurn()
    expect(sizes).toEqual([])
    // Three turns waited: it goes although it is still small and still growing.
    turn.open(4)
    await nextTurn()
    expect(sizes).toEqual([4])

    // A turn that brings nothing ends the wait early.
    turn.open(5)
    await nextTurn()
    turn.open(6)
    await nextTurn()
    await nextTurn()
    expect(sizes).toEqual([4, 2])
  })
})
