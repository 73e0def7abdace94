import { formatMoney } from '../../contract/money.ts'
import { statement, statements, type Queryable, type Sql, type Tx } from '../db/query/types.ts'
import { inSnapshot } from '../db/steps.ts'
import { ENTRY_ID_SPAN } from './statements.ts'
import type { Asset } from './types.ts'

// ── Frozen holders ──────────────────────────────────────────────────────────────────────────────

/**
 * What one feature holds frozen, per ledger account id, in units of 1e-8 (e.g. pending withdrawals:
 * each requested-but-unsettled withdrawal's amount on its user's fund account). Runs inside the
 * audit's snapshot, so it sees the same view as the balances. With `userId`, only that user's
 * accounts: the wallet's breakdown of frozen (issue 33) is the audit's own definition of it.
 */
export type FrozenHolder = (q: Queryable, userId?: number) => Promise<Map<bigint, bigint>>

const registry = new Map<string, FrozenHolder>()

type HeldRow = { user_id: bigint; account_id: bigint | null; held: bigint }

/**
 * A holder of what a feature keeps frozen on its users' fund accounts of one asset: `heldSql`
 * answers (user_id, held) rows; each is put on that user's fund account, which must exist.
 */
export function fundAccountHolder(asset: string, what: string, heldSql: string): FrozenHolder {
  const text = (where: string) => `SELECT h.user_id AS user_id, a.id AS account_id, SUM(h.held) AS held FROM (${heldSql}) h
     LEFT JOIN ledger_accounts a ON a.user_id = h.user_id AND a.kind = 'fund' AND a.asset = ?
     ${where}
     GROUP BY h.user_id, a.id`
  const everyone = statement<HeldRow, [string]>(text(''))
  const one = statement<HeldRow, [string, number]>(text('WHERE h.user_id = ?'))
  return async (q, userId) => {
    const rows = userId === undefined ? await q.all(everyone, asset) : await q.all(one, asset, userId)
    const out = new Map<bigint, bigint>()
    for (const r of rows) {
      if (r.account_id === null) throw new Error(`user ${r.user_id} has ${what} but no fund ${asset} account`)
      out.set(r.account_id, (out.get(r.account_id) ?? 0n) + r.held)
    }
    return out
  }
}

/**
 * Every feature that freezes funds registers here (from a module imported by server/ledger/holders.ts),
 * so the audit can prove frozen = what is held. Returns a function that unregisters it.
 */
export function registerFrozenHolder(name: string, holder: FrozenHolder): () => void {
  if (registry.has(name)) throw new Error(`frozen holder "${name}" is already registered`)
  registry.set(name, holder)
  return () => {
    if (registry.get(name) === holder) registry.delete(name)
  }
}

export function frozenHolderNames(): string[] {
  return [...registry.keys()]
}

/** The registered holders by name (those of server/ledger/holders.ts once it is imported). */
export function frozenHolders(): ReadonlyMap<string, FrozenHolder> {
  return registry
}

// ── The audit ───────────────────────────────────────────────────────────────────────────────────

export type Rule =
  /** (1) per asset, available + frozen over all accounts is not zero */
  | 'asset-sum'
  /** (2) a non-custody account has a negative bucket */
  | 'negative-balance'
  /** (3) an account's stored balance differs from the sum of its entries */
  | 'stored-vs-entries'
  /** (4) a posting's entries do not sum to zero for an asset */
  | 'posting-unbalanced'
  /** (4) a posting with no entries */
  | 'posting-empty'
  /** an entry's copied owner is not its account's owner (money records would show it to the wrong user) */
  | 'entry-owner'
  /** (5) an account's frozen differs from what the registered holders hold */
  | 'frozen-vs-holders'
  /** (5) a holder threw */
  | 'holder-failed'

export interface Violation {
  rule: Rule
  message: string
  accountId?: bigint
  postingId?: bigint
  asset?: Asset
  /** What the rule expects and what was found, units of 1e-8. */
  expected?: bigint
  actual?: bigint
}

export interface AssetTotals {
  asset: Asset
  accounts: number
  /** Over every account; both must add to zero. */
  available: bigint
  frozen: bigint
  /** available + frozen over every account: 0 when balanced. */
  sum: bigint
  /** What users hold (fund + trade, both buckets). */
  users: { available: bigint; frozen: bigint }
  /** Per platform account kind ('custody:bsc', 'fees', …): available + frozen. */
  platform: Record<string, bigint>
}

export interface AuditReport {
  ok: boolean
  totals: AssetTotals[]
  counts: { accounts: number; postings: number; entries: number }
  holders: string[]
  violations: Violation[]
}

type AccountLabelRow = { id: bigint; user_id: bigint | null; kind: string; asset: Asset }
const label = (r: AccountLabelRow) => `account ${r.id} (${r.user_id === null ? r.kind : `user ${r.user_id} ${r.kind}`} ${r.asset})`
const money = (units: bigint) => formatMoney(units)

export interface AuditOptions {
  /** Holders to check frozen against; defaults to the registered ones. */
  holders?: ReadonlyMap<string, FrozenHolder>
}

type AccountRow = AccountLabelRow & { available: bigint; frozen: bigint }

/** Postings per page of the passes over the whole ledger: a big ledger is read in pieces, never held whole. */
const PAGE = 5_000
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

const PAGES = statements({
  /** The last id of the next page of postings after `after`; null past the last. */
  postingPage: statement<{ hi: bigint | null }, [after: bigint, size: number]>(
    `SELECT MAX(id) AS hi FROM (SELECT id FROM ledger_postings WHERE id > ? ORDER BY id LIMIT ?) page`,
  ),
})

/** A page of postings, ids in (after, last], and the range of entry ids [from, to] that holds their entries. */
export interface PostingRange {
  after: bigint
  last: bigint
  from: bigint
  to: bigint
}

/**
 * The whole ledger a page of postings at a time, for reads over every posting or entry that must not
 * hold the whole table in one answer (nor, on SQLite, the event loop in one statement). A posting's
 * entries are ids posting_id * ENTRY_ID_SPAN + n, so a page of postings is one range of the entries' primary
 * key. The ranges cover every id once: the first starts at the smallest id, the last (after the last
 * posting) runs to the largest, so an entry whose posting is missing is still in one of them.
 */
export async function* postingRanges(q: Queryable): AsyncGenerator<PostingRange> {
  let after = INT64_MIN
  let from = INT64_MIN
  for (;;) {
    const hi = (await q.get(PAGES.postingPage, after, PAGE))?.hi ?? null
    if (hi === null) {
      yield { after, last: INT64_MAX, from, to: INT64_MAX }
      return
    }
    const to = (hi + 1n) * ENTRY_ID_SPAN - 1n
    yield { after, last: hi, from, to }
    after = hi
    from = to + 1n
  }
}

const S = statements({
  groups: statement<{ asset: Asset; kind: string; n: bigint; available: bigint; frozen: bigint }, []>(
    `SELECT asset, kind, COUNT(*) AS n, SUM(available) AS available, SUM(frozen) AS frozen
     FROM ledger_accounts GROUP BY asset, kind ORDER BY asset, kind`,
  ),
  negative: statement<AccountRow, []>(
    `SELECT id, user_id, kind, asset, available, frozen FROM ledger_accounts
     WHERE kind NOT LIKE 'custody:%' AND (available < 0 OR frozen < 0) ORDER BY id`,
  ),
  // Entries by id range: a posting's entries are ids posting_id * ENTRY_ID_SPAN + n, so a page of postings is one range of the primary key.
  sums: statement<{ account_id: bigint; e_available: bigint; e_frozen: bigint }, [bigint, bigint]>(
    `SELECT account_id,
            SUM(CASE WHEN bucket = 'available' THEN delta ELSE 0 END) AS e_available,
            SUM(CASE WHEN bucket = 'frozen' THEN delta ELSE 0 END) AS e_frozen
     FROM ledger_entries WHERE id >= ? AND id <= ? GROUP BY account_id`,
  ),
  unbalanced: statement<{ posting_id: bigint; ref: string; asset: Asset; s: bigint }, [bigint, bigint]>(
    `SELECT e.posting_id, p.ref, a.asset, SUM(e.delta) AS s
     FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_postings p ON p.id = e.posting_id
     WHERE e.id >= ? AND e.id <= ?
     GROUP BY e.posting_id, p.ref, a.asset HAVING SUM(e.delta) <> 0 ORDER BY e.posting_id`,
  ),
  empty: statement<{ id: bigint; ref: string }, [bigint, bigint, bigint, bigint]>(
    `SELECT id, ref FROM ledger_postings
     WHERE id > ? AND id <= ? AND id NOT IN (SELECT posting_id FROM ledger_entries WHERE id >= ? AND id <= ?) ORDER BY id`,
  ),
  owner: statement<{ id: bigint; posting_id: bigint; user_id: bigint | null; owner: bigint | null }, [bigint, bigint]>(
    `SELECT e.id, e.posting_id, e.user_id, a.user_id AS owner FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.id >= ? AND e.id <= ? AND (e.user_id <> a.user_id OR (e.user_id IS NULL) <> (a.user_id IS NULL)) ORDER BY e.id`,
  ),
  accounts: statement<AccountRow, [bigint, number]>(
    `SELECT id, user_id, kind, asset, available, frozen FROM ledger_accounts WHERE id > ? ORDER BY id LIMIT ?`,
  ),
  counts: statement<{ accounts: bigint; postings: bigint; entries: bigint }, []>(
    `SELECT (SELECT COUNT(*) FROM ledger_accounts) AS accounts, (SELECT COUNT(*) FROM ledger_postings) AS postings,
            (SELECT COUNT(*) FROM ledger_entries) AS entries`,
  ),
})

/**
 * Checks every ledger invariant over the whole database and lists each violation; `ok` when none.
 * Read-only, in one snapshot (a consistent view while the server keeps writing): q's own
 * transaction when it is one.
 */
export function audit(q: Sql | Tx, opts: AuditOptions = {}): Promise<AuditReport> {
  const holders = opts.holders ?? registry
  return inSnapshot(q, (tx) => runAudit(tx, holders))
}

async function runAudit(tx: Tx, holders: ReadonlyMap<string, FrozenHolder>): Promise<AuditReport> {
  const violations: Violation[] = []

  // Totals, per asset and account kind; summed in JS as bigint.
  const byAsset = new Map<Asset, AssetTotals>()
  for (const g of await tx.all(S.groups)) {
    let t = byAsset.get(g.asset)
    if (!t) {
      byAsset.set(g.asset, (t = { asset: g.asset, accounts: 0, available: 0n, frozen: 0n, sum: 0n, users: { available: 0n, frozen: 0n }, platform: {} }))
    }
    t.accounts += Number(g.n)
    t.available += g.available
    t.frozen += g.frozen
    t.sum += g.available + g.frozen
    if (g.kind === 'fund' || g.kind === 'trade') {
      t.users.available += g.available
      t.users.frozen += g.frozen
    } else {
      t.platform[g.kind] = g.available + g.frozen
    }
  }
  const totals = [...byAsset.values()]

  // (1) Per asset, everything sums to zero.
  for (const t of totals) {
    if (t.sum !== 0n) {
      violations.push({ rule: 'asset-sum', asset: t.asset, expected: 0n, actual: t.sum, message: `${t.asset}: all accounts sum to ${money(t.sum)}, not 0` })
    }
  }

  // (2) Only custody may be negative.
  for (const r of await tx.all(S.negative)) {
    for (const b of ['available', 'frozen'] as const) {
      if (r[b] < 0n) {
        violations.push({ rule: 'negative-balance', accountId: r.id, asset: r.asset, actual: r[b], message: `${label(r)}: ${b} is ${money(r[b])}` })
      }
    }
  }

  // One pass over the entries, a page of postings at a time: the sums per account for (3), and (4).
  const sums = new Map<bigint, { available: bigint; frozen: bigint }>()
  const postingViolations: Violation[] = []
  const emptyViolations: Violation[] = []
  const ownerViolations: Violation[] = []
  for await (const { after, last, from, to } of postingRanges(tx)) {
    for (const r of await tx.all(S.sums, from, to)) {
      const s = sums.get(r.account_id) ?? { available: 0n, frozen: 0n }
      sums.set(r.account_id, { available: s.available + r.e_available, frozen: s.frozen + r.e_frozen })
    }
    // (4) Every posting balances per asset, and has entries.
    for (const r of await tx.all(S.unbalanced, from, to)) {
      postingViolations.push({
        rule: 'posting-unbalanced',
        postingId: r.posting_id,
        asset: r.asset,
        expected: 0n,
        actual: r.s,
        message: `posting ${r.posting_id} (${r.ref}): ${r.asset} entries sum to ${money(r.s)}, not 0`,
      })
    }
    for (const r of await tx.all(S.empty, after, last, from, to)) {
      emptyViolations.push({ rule: 'posting-empty', postingId: r.id, message: `posting ${r.id} (${r.ref}) has no entries` })
    }
    for (const r of await tx.all(S.owner, from, to)) {
      ownerViolations.push({
        rule: 'entry-owner',
        postingId: r.posting_id,
        message: `entry ${r.id} of posting ${r.posting_id} names user ${r.user_id ?? 'none'}, its account belongs to ${r.owner ?? 'the platform'}`,
      })
    }
  }

  // (5) Frozen is exactly what the holders hold. Each holder in a savepoint: one whose statement fails
  // (on PostgreSQL that aborts the transaction) leaves the rest of the audit its snapshot.
  const held = new Map<bigint, bigint>()
  const holderViolations: Violation[] = []
  for (const [name, holder] of holders) {
    let m: Map<bigint, bigint>
    try {
      m = await tx.savepoint((sp) => holder(sp))
    } catch (err) {
      holderViolations.push({ rule: 'holder-failed', message: `frozen holder "${name}" failed: ${err instanceof Error ? err.message : String(err)}` })
      continue
    }
    for (const [id, amount] of m) held.set(id, (held.get(id) ?? 0n) + amount)
  }

  // One pass over the accounts, a page at a time: (3) stored balances are the sum of their entries, and
  // (5) for the accounts with something frozen; held accounts with none frozen are checked after them.
  const storedViolations: Violation[] = []
  const frozenViolations: Violation[] = []
  const check = (r: AccountLabelRow & { frozen: bigint }) => {
    const expected = held.get(r.id) ?? 0n
    if (expected !== r.frozen) {
      frozenViolations.push({
        rule: 'frozen-vs-holders',
        accountId: r.id,
        asset: r.asset,
        expected,
        actual: r.frozen,
        message: `${label(r)}: frozen ${money(r.frozen)}, holders hold ${money(expected)}`,
      })
    }
  }
  const seen = new Set<bigint>()
  const heldNoneFrozen = new Map<bigint, AccountRow>()
  for (let last = INT64_MIN; ; ) {
    const page = await tx.all(S.accounts, last, PAGE)
    for (const r of page) {
      const s = sums.get(r.id) ?? { available: 0n, frozen: 0n }
      if (r.available !== s.available) {
        storedViolations.push({
          rule: 'stored-vs-entries',
          accountId: r.id,
          asset: r.asset,
          expected: s.available,
          actual: r.available,
          message: `${label(r)}: available stored ${money(r.available)}, entries sum to ${money(s.available)}`,
        })
      }
      if (r.frozen !== s.frozen) {
        storedViolations.push({
          rule: 'stored-vs-entries',
          accountId: r.id,
          asset: r.asset,
          expected: s.frozen,
          actual: r.frozen,
          message: `${label(r)}: frozen stored ${money(r.frozen)}, entries sum to ${money(s.frozen)}`,
        })
      }
      if (r.frozen !== 0n) {
        seen.add(r.id)
        check(r)
      } else if (held.has(r.id)) heldNoneFrozen.set(r.id, r)
    }
    const end = page.at(-1)
    if (page.length < PAGE || !end) break
    last = end.id
  }
  for (const [id, amount] of held) {
    if (seen.has(id)) continue
    const r = heldNoneFrozen.get(id)
    if (r) check(r)
    else frozenViolations.push({ rule: 'frozen-vs-holders', accountId: id, expected: amount, actual: 0n, message: `holders hold ${money(amount)} on account ${id}, which does not exist` })
  }
  violations.push(...storedViolations, ...postingViolations, ...emptyViolations, ...ownerViolations, ...holderViolations, ...frozenViolations)

  const counts = await tx.get(S.counts)
  return {
    ok: violations.length === 0,
    totals,
    counts: { accounts: Number(counts?.accounts ?? 0n), postings: Number(counts?.postings ?? 0n), entries: Number(counts?.entries ?? 0n) },
    holders: [...holders.keys()],
    violations,
  }
}

/** The report as an operator reads it. */
export function formatAudit(report: AuditReport): string {
  const lines: string[] = []
  lines.push(`ledger: ${report.counts.accounts} accounts, ${report.counts.postings} postings, ${report.counts.entries} entries`)
  lines.push(`frozen holders: ${report.holders.length ? report.holders.join(', ') : 'none registered (all frozen must be 0)'}`)
  if (report.totals.length === 0) lines.push('no balances yet')
  for (const t of report.totals) {
    lines.push('')
    lines.push(`${t.asset}  (${t.accounts} accounts)  sum ${money(t.sum)}${t.sum === 0n ? '  ✓' : '  ✗'}`)
    lines.push(`  ${'users'.padEnd(14)} available ${money(t.users.available)}  frozen ${money(t.users.frozen)}`)
    for (const [kind, v] of Object.entries(t.platform)) lines.push(`  ${kind.padEnd(14)} ${money(v)}`)
  }
  lines.push('')
  if (report.ok) lines.push('OK: no violations')
  else {
    lines.push(`${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}:`)
    for (const v of report.violations) lines.push(`  [${v.rule}] ${v.message}`)
  }
  return lines.join('\n')
}

