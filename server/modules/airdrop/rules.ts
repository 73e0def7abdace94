// The operator's airdrop, its pure parts: the command's words, the user list file, the ref that
// makes each (airdrop, user) credit happen once.
import { parseMoney } from '../../../contract/money.ts'
import * as ledger from '../../ledger/index.ts'

export const AIRDROP_USAGE = 'usage: airdrop <airdrop-id> <asset> <amount-per-user> [--users <file>|all] [--day <YYYY-MM-DD>]'

export interface AirdropRequest {
  id: string
  asset: ledger.KnownAsset
  perUser: bigint
  /** 'all' users, or the path of a file naming them. */
  users: 'all' | { file: string }
  /** The UTC day whose nodes decide the multipliers; null: the recorded one on a re-run, else today. */
  day: number | null
}

const ID_RE = /^[a-z0-9][a-z0-9_-]{0,39}$/i
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Checks the command's words: the request, or what is wrong (usage). */
export function parseAirdrop(args: readonly string[]): AirdropRequest | { problem: string } {
  const rest = [...args]
  let users: AirdropRequest['users'] = 'all'
  let day: number | null = null
  for (const flag of ['--users', '--day'] as const) {
    const at = rest.indexOf(flag)
    if (at < 0) continue
    const value = rest[at + 1]
    if (value === undefined || value.startsWith('--')) return { problem: `airdrop: ${flag} needs a value\n${AIRDROP_USAGE}` }
    rest.splice(at, 2)
    if (flag === '--users') users = value === 'all' ? 'all' : { file: value }
    else {
      const m = DAY_RE.exec(value)
      const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN
      if (!m || new Date(ms).toISOString().slice(0, 10) !== value) return { problem: `airdrop: --day takes a date, YYYY-MM-DD, not ${value}` }
      day = ms / 86_400_000
    }
  }
  if (rest.length !== 3 || rest.some((a) => a.startsWith('--'))) return { problem: AIRDROP_USAGE }
  const [id, asset, amount] = rest as [string, string, string]
  if (!ID_RE.test(id)) return { problem: `airdrop: the airdrop id is 1–40 letters, digits, - or _, not ${id}` }
  if (!ledger.isAsset(asset)) return { problem: `airdrop: ${asset} is not an asset of the ledger (${ledger.ASSETS.join(', ')})` }
  const perUser = parseMoney(amount)
  if (perUser === null || perUser <= 0n || perUser > ledger.INT64_MAX / 100n) return { problem: `airdrop: ${amount} is not a positive amount with at most 8 decimals` }
  return { id, asset: asset as ledger.KnownAsset, perUser, users, day }
}

export const MEME_SUPPLY_USAGE = 'usage: meme supply <amount> [--chain <key>]'

/**
 * `meme supply`: MEME the platform's hot wallet holds on a chain (minted there by the operator)
 * entered in the ledger's treasury, so airdrops can credit it. Answers the request, or what is wrong.
 */
export function parseMemeSupply(args: readonly string[], chains: readonly string[]): { amount: bigint; chain: string } | { problem: string } {
  const rest = [...args]
  let chain = 'nadi'
  const at = rest.indexOf('--chain')
  if (at >= 0) {
    chain = rest[at + 1] ?? ''
    rest.splice(at, 2)
    if (!chains.includes(chain)) return { problem: `meme supply: --chain takes ${chains.join(' or ')}, not ${chain || 'nothing'}` }
  }
  if (rest.length !== 1) return { problem: MEME_SUPPLY_USAGE }
  const amount = parseMoney(rest[0]!)
  if (amount === null || amount <= 0n || amount > ledger.INT64_MAX) return { problem: `meme supply: ${rest[0]} is not a positive amount with at most 8 decimals` }
  return { amount, chain }
}

export type UserToken = { id: bigint } | { address: string }

/**
 * A user list: one user a line, by id or by wallet address; blank lines and # comments are skipped.
 * Answers the tokens, or the lines that are neither.
 */
export function parseUserList(text: string): UserToken[] | { problem: string } {
  const out: UserToken[] = []
  const bad: string[] = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim()
    if (line === '') return
    if (/^[1-9]\d{0,17}$/.test(line)) out.push({ id: BigInt(line) })
    else if (/^0x[0-9a-fA-F]{40}$/.test(line)) out.push({ address: line.toLowerCase() })
    else bad.push(`line ${i + 1}: ${line.slice(0, 60)}`)
  })
  if (bad.length) return { problem: `airdrop: not a user id or wallet address — ${bad.slice(0, 5).join('; ')}${bad.length > 5 ? ` (and ${bad.length - 5} more)` : ''}` }
  if (out.length === 0) return { problem: 'airdrop: the user list names no user' }
  return out
}

/** One credit per (airdrop, user): the ledger refuses to post a ref twice. */
export const airdropRef = (id: string, userId: bigint) => `airdrop:${id}:${userId}`

/** What a user receives: the amount per user × their multiplier (pure). */
export const airdropAmount = (perUser: bigint, multiplier: number): bigint => perUser * BigInt(multiplier)
