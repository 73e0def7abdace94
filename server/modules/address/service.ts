import type { Selectable, Transaction } from 'kysely'
import type { Ctx } from '../../context.ts'
import type { AddressesTable, DB } from '../../db/schema.ts'
import { checkText, isValidPhone, normalizePhone, trimText, type TextProblem } from '../../../contract/addressRules.ts'
import { ADDRESS_LIMITS as L, type Address, type AddAddressBody, type EditAddressBody } from '../../../contract/address.ts'
import { badRequest, conflict, notFound } from '../../http/errors.ts'
import { recordKeyedEffectIn } from '../../db/query/kysely.ts'

type Row = Selectable<AddressesTable>
type Trx = Transaction<DB>

/** What a saved address holds once checked: trimmed text and the phone as an optional + and digits. */
export interface CleanAddress {
  name: string
  phone: string
  area: string
  address: string
  is_default: boolean
}

const PHONE_PARAMS = { min: L.phoneDigitsMin, max: L.phoneDigitsMax }

export const phoneInvalid = () => badRequest('errors.phoneInvalid', PHONE_PARAMS)

/** SPEC §5: checks an address as typed and answers it cleaned; the first problem is thrown as a 400. */
export function cleanAddress(input: AddAddressBody): CleanAddress {
  const text = (raw: string, max: number, keys: Record<TextProblem, string>) => {
    const problem = checkText(raw, max)
    if (problem) throw badRequest(keys[problem], { max })
    return trimText(raw)
  }
  const name = text(input.name, L.name, { required: 'errors.addressNameRequired', invalid: 'errors.addressNameInvalid', tooLong: 'errors.addressNameTooLong' })

  if (!isValidPhone(input.phone)) throw phoneInvalid()
  const phone = normalizePhone(input.phone)

  const area = text(input.area, L.area, { required: 'errors.areaRequired', invalid: 'errors.areaInvalid', tooLong: 'errors.areaTooLong' })
  const address = text(input.address, L.address, { required: 'errors.addressDetailRequired', invalid: 'errors.addressDetailInvalid', tooLong: 'errors.addressDetailTooLong' })

  return { name, phone, area, address, is_default: input.is_default === true }
}

function toWire(r: Row): Address {
  return {
    id: Number(r.id),
    name: r.name,
    phone: r.phone,
    area: r.area,
    address: r.address,
    is_default: r.is_default === 1n,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }
}

export type AddressService = ReturnType<typeof createAddressService>

/**
 * A user's delivery addresses. Every action is one transaction, and each keeps the invariant: a user
 * with addresses has exactly one default. Another user's address is answered exactly like a missing one.
 */
export function createAddressService(ctx: Ctx) {
  const { db } = ctx
  const tx = <T>(fn: (trx: Trx) => Promise<T>) => db.transaction().execute(fn)
  /** A change: a keyed request's answer (`answer` of what it wrote) is kept in its transaction (server/db/keyedEffect.ts). */
  const change = <T>(userId: number, fn: (trx: Trx) => Promise<T>, answer: (v: T) => unknown) =>
    db.transaction().execute(async (trx) => {
      // One user's changes one after another: each reads how many addresses there are and which is the
      // default, then writes from it, and two side by side (two api processes, or two connections of
      // one pool) would both make a first address the default. SQLite's transactions already take turns.
      if (ctx.sql.dialect === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', BigInt(userId)).forNoKeyUpdate().execute()
      const v = await fn(trx)
      await recordKeyedEffectIn(trx, answer(v))
      return v
    })

  const own = (trx: Trx, userId: number, id: number) =>
    trx.selectFrom('addresses').selectAll().where('id', '=', BigInt(id)).where('user_id', '=', BigInt(userId)).executeTakeFirst()

  async function ownOr404(trx: Trx, userId: number, id: number): Promise<Row> {
    const row = await own(trx, userId, id)
    if (!row) throw notFound('errors.addressNotFound')
    return row
  }

  /** Takes the flag off the user's current default (there is at most one), ahead of giving it to another. */
  async function clearDefault(trx: Trx, userId: number, now: number) {
    await trx
      .updateTable('addresses')
      .set({ is_default: 0n, updated_at: BigInt(now) })
      .where('user_id', '=', BigInt(userId))
      .where('is_default', '=', 1n)
      .execute()
  }

  return {
    /** The default first, then newest first. */
    async list(userId: number): Promise<Address[]> {
      const rows = await tx((trx) =>
        trx
          .selectFrom('addresses')
          .selectAll()
          .where('user_id', '=', BigInt(userId))
          .orderBy('is_default', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute(),
      )
      return rows.map(toWire)
    },

    async detail(userId: number, id: number): Promise<Address> {
      return toWire(await tx((trx) => ownOr404(trx, userId, id)))
    },

    async getDefault(userId: number): Promise<Address | null> {
      const row = await tx((trx) =>
        trx.selectFrom('addresses').selectAll().where('user_id', '=', BigInt(userId)).where('is_default', '=', 1n).executeTakeFirst(),
      )
      return row ? toWire(row) : null
    },

    /** The first address is the default whatever the flag says; at the limit the answer is 409. */
    async add(userId: number, input: AddAddressBody): Promise<Address> {
      const a = cleanAddress(input)
      const now = ctx.now()
      const row = await change(userId, async (trx) => {
        const { n } = await trx
          .selectFrom('addresses')
          .select((eb) => eb.fn.countAll<bigint>().as('n'))
          .where('user_id', '=', BigInt(userId))
          .executeTakeFirstOrThrow()
        if (Number(n) >= L.perUser) throw conflict('errors.addressLimit', { max: L.perUser })
        const makeDefault = a.is_default || Number(n) === 0
        if (makeDefault) await clearDefault(trx, userId, now)
        return trx
          .insertInto('addresses')
          .values({
            user_id: BigInt(userId),
            name: a.name,
            phone: a.phone,
            area: a.area,
            address: a.address,
            is_default: makeDefault ? 1n : 0n,
            created_at: BigInt(now),
            updated_at: BigInt(now),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
      }, toWire)
      return toWire(row)
    },

    /** Replaces the fields. is_default true moves the default here; false leaves the flag as it was. */
    async edit(userId: number, input: EditAddressBody): Promise<Address> {
      const a = cleanAddress(input)
      const now = ctx.now()
      const row = await change(userId, async (trx) => {
        const current = await ownOr404(trx, userId, input.id)
        const makeDefault = a.is_default && current.is_default !== 1n
        if (makeDefault) await clearDefault(trx, userId, now)
        return trx
          .updateTable('addresses')
          .set({
            name: a.name,
            phone: a.phone,
            area: a.area,
            address: a.address,
            ...(makeDefault ? { is_default: 1n } : {}),
            updated_at: BigInt(now),
          })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      }, toWire)
      return toWire(row)
    },

    async setDefault(userId: number, id: number): Promise<void> {
      const now = ctx.now()
      await change(userId, async (trx) => {
        const row = await ownOr404(trx, userId, id)
        if (row.is_default === 1n) return
        await clearDefault(trx, userId, now)
        await trx.updateTable('addresses').set({ is_default: 1n, updated_at: BigInt(now) }).where('id', '=', row.id).execute()
      }, () => null)
    },

    /** Deleting the default hands the flag to the newest address left. */
    async remove(userId: number, id: number): Promise<void> {
      const now = ctx.now()
      await change(userId, async (trx) => {
        const row = await ownOr404(trx, userId, id)
        await trx.deleteFrom('addresses').where('id', '=', row.id).execute()
        if (row.is_default !== 1n) return
        const next = await trx
          .selectFrom('addresses')
          .select('id')
          .where('user_id', '=', BigInt(userId))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst()
        if (next) await trx.updateTable('addresses').set({ is_default: 1n, updated_at: BigInt(now) }).where('id', '=', next.id).execute()
      }, () => null)
    },
  }
}
