import { getAddress } from 'ethers'
import { formatMoney, parseAmount, parseMoney } from '../../../contract/money.ts'
import type { ChainKey } from '../../../contract/recharge.ts'
import type { Withdrawal, WithdrawBody, WithdrawConfig } from '../../../contract/withdraw.ts'
import type { Ctx } from '../../context.ts'
import { badRequest } from '../../http/errors.ts'
import type { WithdrawSettings } from '../../config.ts'
import { COIN, create, toWire, WithdrawBalanceError } from './store.ts'
import { answerKeyedAs } from '../../db/keyedEffect.ts'

/** The chain keys the wire knows (contract ChainKey). */
const WIRE_CHAINS: readonly string[] = ['bsc', 'nadi'] satisfies ChainKey[]
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`

/**
 * EIP-55: a mixed-case address must carry the right checksum (a mistyped character is caught); an
 * all-lower or all-upper one carries none and is taken as written. Answers the checksummed form.
 */
export function checksummed(address: string): string {
  if (!HEX_ADDRESS.test(address)) throw badRequest('errors.withdrawAddressInvalid')
  const hex = address.slice(2)
  const sum = getAddress(address.toLowerCase())
  const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase()
  if (mixed && sum !== address) throw badRequest('errors.withdrawAddressChecksum')
  return sum
}

export type WithdrawService = ReturnType<typeof createWithdrawService>

/**
 * Withdrawals as the user sees them (SPEC §5, DESIGN §7): NADI only, at least the minimum, amount + fee
 * within the fund account's available NADI, to a checksummed address, on a chain where the hot wallet
 * can send NADI. A request freezes amount + fee at once; the sender (server/chain/withdrawSender.ts)
 * does the rest.
 */
export function createWithdrawService(ctx: Ctx, settings: WithdrawSettings) {
  const min = parseMoney(ctx.config.limits.withdrawMin)
  if (min === null || min <= 0n) throw new Error(`withdraw minimum must be a positive amount, got "${ctx.config.limits.withdrawMin}"`)
  const required = ctx.config.limits.withdrawConfirmations

  /** Chains where NADI can be sent now: a node, the token and the hot wallet are configured. */
  const openChains = (): ChainKey[] =>
    ctx.chain
      .chains()
      .filter((c) => WIRE_CHAINS.includes(c.key) && ctx.chain.missing(c.key, ['rpc', COIN, 'hotWallet']).length === 0)
      .map((c) => c.key as ChainKey)

  /** Addresses that would lose the tokens or send them in a circle: zero, the tokens themselves, the hot wallet. */
  function refused(chain: string, address: string): boolean {
    if (address === ZERO_ADDRESS) return true
    const c = ctx.chain.chain(chain)
    const own = [c.tokens.USDT, c.tokens.NADI, c.tokens.MEME, ctx.chain.hotWalletAddress()]
    return own.some((a) => a !== null && a.toLowerCase() === address.toLowerCase())
  }

  return {
    config(): WithdrawConfig {
      return { coin: COIN, min: formatMoney(min), fee: formatMoney(settings.fee), confirmations: required, chains: openChains() }
    },

    async apply(userId: number, body: WithdrawBody): Promise<Withdrawal> {
      if (body.coin !== COIN) throw badRequest('errors.withdrawCoinUnsupported', { coin: COIN })
      const amount = parseAmount(body.amount)
      if (amount === null || amount <= 0n) throw badRequest('errors.withdrawAmountInvalid')
      if (!openChains().includes(body.chain)) throw badRequest('errors.withdrawChainUnsupported')
      if (amount < min) throw badRequest('errors.withdrawBelowMin', { min: formatMoney(min), coin: COIN })
      const address = checksummed(body.address)
      if (refused(body.chain, address)) throw badRequest('errors.withdrawAddressNotAllowed')
      answerKeyedAs((row: Parameters<typeof toWire>[0]) => toWire(row, required))
      try {
        const row = await ctx.commits.write((tx) =>
          create(tx, ctx, {
            userId: BigInt(userId),
            chain: body.chain,
            amount,
            fee: settings.fee,
            address,
            autoApprove: amount < settings.autoApproveBelow,
          }),
        )
        ctx.log.info({ withdrawal: Number(row.id), user: userId, chain: row.chain, amount: body.amount, status: row.status }, 'withdrawal requested')
        return toWire(row, required)
      } catch (err) {
        if (err instanceof WithdrawBalanceError) {
          throw badRequest('errors.withdrawInsufficient', {
            available: formatMoney(err.available),
            required: formatMoney(err.required),
            fee: formatMoney(settings.fee),
            coin: COIN,
          })
        }
        throw err
      }
    },

    /** The user's own withdrawals, newest first. */
    async list(userId: number, page: number, pageSize: number): Promise<{ list: Withdrawal[]; total: number }> {
      const uid = BigInt(userId)
      const [rows, count] = await Promise.all([
        ctx.sql.rows(
          ctx.db
            .selectFrom('withdrawals')
            .selectAll()
            .where('user_id', '=', uid)
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        ctx.sql.row(ctx.db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<bigint>().as('n')).where('user_id', '=', uid)),
      ])
      return { list: rows.map((r) => toWire(r, required)), total: Number(count?.n ?? 0n) }
    },
  }
}
