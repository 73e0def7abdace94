// The withdrawal form's rules (SPEC §5, DESIGN §7): NADI only, an EVM address (checksummed when it
// is written in mixed case), an amount of at least the minimum that, with the fee, fits in what is
// available. The server is the authority; these show the problem before anything is sent. Pure.
import { checkAmount, type Problem } from '../wallet/amount.ts'
import { keccak256, toHex } from './keccak.ts'

export type { Problem } from '../wallet/amount.ts'

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** EIP-55: the address with each letter upper-cased where the hash of the lower-case hex says so. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase()
  const hash = toHex(keccak256(new TextEncoder().encode(hex)))
  let out = '0x'
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!
  return out
}

/**
 * null when the address can be sent. An all-lower or all-upper address carries no checksum (EIP-55)
 * and is taken as is; a mixed-case one must match its checksum, which catches a mistyped character.
 */
export function checkAddress(text: string): Problem | null {
  const a = text.trim()
  if (a === '') return { key: 'withdraw.addressRequired' }
  if (!HEX_ADDRESS.test(a)) return { key: 'withdraw.addressInvalid' }
  if (/^0x0{40}$/i.test(a)) return { key: 'withdraw.addressInvalid' }
  const body = a.slice(2)
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed && toChecksumAddress(a) !== a) return { key: 'withdraw.addressChecksum' }
  return null
}

export interface WithdrawRules {
  /** The fund account's available NADI, in units; absent while loading. */
  available?: bigint | undefined
  min: bigint
  fee: bigint
}

export interface WithdrawCheck {
  errors: Partial<Record<'address' | 'amount', Problem>>
  /** Set when the form can be sent. */
  ok?: { address: string; amount: string; units: bigint }
}

export function validateWithdraw(form: { address: string; amount: string }, rules: WithdrawRules): WithdrawCheck {
  const errors: WithdrawCheck['errors'] = {}
  const address = checkAddress(form.address)
  if (address) errors.address = address
  const amount = checkAmount(form.amount, { asset: 'NADI', available: rules.available, min: rules.min, extra: rules.fee })
  if (!amount.ok) errors.amount = amount.problem
  if (address || !amount.ok) return { errors }
  return { errors, ok: { address: form.address.trim(), amount: amount.wire, units: amount.units } }
}

/** What the confirm dialog shows: the amount arrives in full; the fee is taken on top of it. */
export function withdrawTotals(amount: bigint, fee: bigint): { receive: bigint; fee: bigint; total: bigint } {
  return { receive: amount, fee, total: amount + fee }
}
