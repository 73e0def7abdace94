import type { Selectable } from 'kysely'
import { CODE } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { ChainKey, Deposit, RechargeAddress } from '../../../contract/recharge.ts'
import type { Asset } from '../../../contract/wallet.ts'
import type { Ctx } from '../../context.ts'
import type { DepositsTable } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'

export function depositToWire(r: Selectable<DepositsTable>): Deposit {
  return {
    id: Number(r.id),
    coin: r.coin as Asset,
    chain: r.chain as ChainKey,
    amount: formatMoney(r.amount),
    tx_hash: r.tx_hash,
    confirmations: Number(r.confirmations),
    required: Number(r.required),
    status: r.status,
    created_at: Number(r.created_at),
    credited_at: r.credited_at === null ? null : Number(r.credited_at),
  }
}

export type RechargeService = ReturnType<typeof createRechargeService>

/**
 * Deposit addresses and deposit records. The deposits themselves are found, confirmed and credited by
 * server/chain/depositWatcher.ts, which watches the addresses handed out here.
 */
export function createRechargeService(ctx: Ctx) {
  const { db } = ctx
  const gw = ctx.chain

  return {
    /**
     * The user's own deposit address on a chain (the same key on every EVM chain, so the same address),
     * with the token contract to send and the confirmations a credit waits for. Handing it out is what
     * makes the watcher look at it.
     */
    async address(userId: number, coin: Asset, chain: ChainKey): Promise<RechargeAddress> {
      if (gw.missing(chain, ['rpc', coin, 'depositKey']).length > 0) {
        throw new ApiError(409, CODE.CONFLICT, 'errors.rechargeUnavailable', { coin, chain: gw.chain(chain).name })
      }
      const c = gw.chain(chain)
      const address = gw.depositAddress(chain, userId)
      await db
        .insertInto('deposit_addresses')
        .values({ user_id: BigInt(userId), chain, address, created_at: BigInt(ctx.now()) })
        .onConflict((oc) => oc.doNothing())
        .execute()
      return { coin, chain, chain_id: c.id, address, token: c.tokens[coin]!, confirmations: c.confirmations }
    },

    /** Every deposit seen to the user's addresses, newest first: confirming (n of required), credited or dropped. */
    async list(userId: number, page: number, pageSize: number): Promise<PagedList<Deposit>> {
      const base = db.selectFrom('deposits').where('user_id', '=', BigInt(userId))
      const { n } = await base.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const rows = await base.selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute()
      return { total: Number(n), list: rows.map(depositToWire) }
    },
  }
}
