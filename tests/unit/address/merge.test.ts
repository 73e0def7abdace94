import { describe, expect, it } from 'vitest'
import { ACTION, mergeAddresses, type QueuedChange, type ServerAddress } from '../../../src/features/address/merge.ts'

const home: ServerAddress = { id: 1, name: 'Ana', phone: '0912345678', area: 'Taipei', address: 'Road 1', is_default: true }
const work: ServerAddress = { id: 2, name: 'Ana', phone: '0912345678', area: 'Taipei', address: 'Road 2', is_default: false }
const q = (id: number, action: string, payload: unknown, state: QueuedChange['state'] = 'pending', error?: string): QueuedChange => ({ id, action, payload, state, error })

describe('the address list with queued offline changes', () => {
  it('shows the server list as it is when nothing is queued, default first', () => {
    const rows = mergeAddresses([work, home], [])
    expect(rows.map((r) => r.id)).toEqual([1, 2])
    expect(rows.every((r) => r.change === undefined)).toBe(true)
  })

  it('a queued new address appears at the end, marked pending', () => {
    const rows = mergeAddresses([home], [q(7, ACTION.add, { ...work, is_default: false })])
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatchObject({ key: 'q7', address: 'Road 2', change: { outboxId: 7, kind: 'add', state: 'pending' } })
    expect(rows[1]!.id).toBeUndefined()
  })

  it('the first address of a new user is the default even when queued', () => {
    const rows = mergeAddresses([], [q(1, ACTION.add, { ...home, is_default: false })])
    expect(rows[0]!.is_default).toBe(true)
  })

  it('a queued edit shows the new text on its row; a queued default moves the mark', () => {
    const rows = mergeAddresses([home, work], [q(3, ACTION.edit, { ...work, address: 'Road 2, floor 5' }), q(4, ACTION.setDefault, { id: 2 })])
    expect(rows[0]).toMatchObject({ id: 2, address: 'Road 2, floor 5', is_default: true, change: { kind: 'setDefault' } })
    expect(rows[1]).toMatchObject({ id: 1, is_default: false })
  })

  it('a queued delete keeps the row, marked, until the server confirms', () => {
    const rows = mergeAddresses([home, work], [q(5, ACTION.remove, { id: 2 })])
    expect(rows.find((r) => r.id === 2)?.change).toMatchObject({ kind: 'delete', state: 'pending' })
  })

  it('a change the server refused is shown with the server’s message', () => {
    const rows = mergeAddresses([home], [q(6, ACTION.add, work, 'failed', 'Invalid phone number')])
    expect(rows[1]!.change).toMatchObject({ state: 'failed', error: 'Invalid phone number' })
  })

  it('changes to an address that no longer exists, and other actions, are ignored', () => {
    const rows = mergeAddresses([home], [q(8, ACTION.edit, { ...work, id: 99 }), q(9, 'notice.read', { id: 1 })])
    expect(rows).toHaveLength(1)
    expect(rows[0]!.change).toBeUndefined()
  })
})
