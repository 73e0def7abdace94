import type { AddressForm } from './validation.ts'

/** What the list needs of a server address (contract/address.ts has the full wire type). */
export interface ServerAddress extends AddressForm {
  id: number
}

/** The part of an outbox item the list reads: a queued change not yet accepted by the server. */
export interface QueuedChange {
  id: number
  action: string
  payload: unknown
  state: 'pending' | 'sending' | 'failed'
  error?: string | undefined
}

export const ACTION = {
  add: 'address.add',
  edit: 'address.edit',
  remove: 'address.delete',
  setDefault: 'address.setDefault',
} as const

export interface AddressView extends AddressForm {
  key: string
  /** The server id; absent for an address only queued so far. */
  id?: number
  /** The queued change shown on this row, if any. */
  change?: { outboxId: number; kind: 'add' | 'edit' | 'delete' | 'setDefault'; state: QueuedChange['state']; error?: string | undefined }
}

const KIND: Record<string, 'add' | 'edit' | 'delete' | 'setDefault'> = {
  [ACTION.add]: 'add',
  [ACTION.edit]: 'edit',
  [ACTION.remove]: 'delete',
  [ACTION.setDefault]: 'setDefault',
}

/**
 * The list as the user expects to see it: the server's addresses with every queued change applied in
 * order, each changed row marked with its change (pending, sending, or failed with the server's words).
 */
export function mergeAddresses(server: ServerAddress[], queue: QueuedChange[]): AddressView[] {
  const rows: AddressView[] = server.map((a) => ({ ...a, key: `s${a.id}` }))
  const makeDefault = (row: AddressView) => {
    for (const r of rows) r.is_default = r === row
  }
  for (const item of queue) {
    const kind = KIND[item.action]
    if (!kind) continue
    const change = { outboxId: item.id, kind, state: item.state, error: item.error }
    if (kind === 'add') {
      const p = item.payload as AddressForm
      const row: AddressView = { name: p.name, phone: p.phone, area: p.area, address: p.address, is_default: p.is_default, key: `q${item.id}`, change }
      rows.push(row)
      if (p.is_default || rows.length === 1) makeDefault(row)
      continue
    }
    const id = (item.payload as { id: number }).id
    const row = rows.find((r) => r.id === id)
    if (!row) continue
    row.change = change
    if (kind === 'edit') {
      const p = item.payload as ServerAddress
      Object.assign(row, { name: p.name, phone: p.phone, area: p.area, address: p.address })
      if (p.is_default) makeDefault(row)
    } else if (kind === 'setDefault') makeDefault(row)
  }
  // The default first, then the order they were made in.
  return rows.sort((a, b) => Number(b.is_default) - Number(a.is_default))
}
