import { formatMoney } from '../../contract/money.ts'
import { describeAccount, type AccountRef, type Asset, type Bucket } from './types.ts'

/** Every refusal of the ledger. Thrown before anything is written; `code` tells them apart. */
export abstract class LedgerError extends Error {
  abstract readonly code: 'insufficient_funds' | 'invalid_posting' | 'ref_conflict'
}

/**
 * A posting would take a bucket below zero. `current` is what the bucket holds, `required` what the
 * posting takes out of it (net), both in units of 1e-8: the payment flow renders
 * "insufficient NADI: current X, required Y" from them.
 */
export class InsufficientFunds extends LedgerError {
  readonly code = 'insufficient_funds'
  constructor(
    readonly account: AccountRef,
    readonly asset: Asset,
    readonly bucket: Bucket,
    readonly current: bigint,
    readonly required: bigint,
  ) {
    super(
      `insufficient ${bucket === 'frozen' ? 'frozen ' : ''}${asset}: current ${formatMoney(current)}, required ${formatMoney(required)}` +
        ` (${describeAccount(account)})`,
    )
    this.name = 'InsufficientFunds'
  }
}

/** The posting is malformed: a bad amount, an unknown asset or account, entries that do not balance. */
export class InvalidPosting extends LedgerError {
  readonly code = 'invalid_posting'
  constructor(message: string) {
    super(message)
    this.name = 'InvalidPosting'
  }
}

/** The ref was already posted with different content: two different actions were given one key. */
export class RefConflict extends LedgerError {
  readonly code = 'ref_conflict'
  constructor(
    readonly ref: string,
    readonly postingId: bigint,
    readonly difference: string,
  ) {
    super(`ref "${ref}" was already posted (posting ${postingId}) with different content: ${difference}`)
    this.name = 'RefConflict'
  }
}
