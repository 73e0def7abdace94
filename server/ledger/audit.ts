import type { SqlConnection } from '../db/connection.ts'
import { formatMoney } from '../../contract/money.ts'
import type { Asset } from './types.ts'

// ── Frozen holders ──────────────────────────────────────────────────────────────────────────────

/**
 * What one feature holds frozen, per ledger account id, in units of 1e-8 (e.g. pending withdrawals:
 * each requested-but-unsettled withdrawal's amount on its user's fund account). Runs inside the
 * audit's read transaction, so it sees the same snapshot as the balances. With `userId`, only that
 * user's accounts: the wallet's breakdown of frozen (issue 33) is the audit's own definition of it.
 */
export type FrozenHolder = (sqlite: SqlConnection, userId?: number) => Map<bigint, bigint>

const registry = new Map<string, FrozenHolder>()

/**
 * A holder of what a feature keeps frozen on its users' fund accounts of one asset: `heldSql`
 * answers (user_id, held) rows; each is put on that user's fund account, which must exist.
 */
export function fundAccountHolder(asset: string, what: string, heldSql: string): FrozenHolder {
  return (sqlite, userId) => {
    const rows = sqlite
      .prepare(
        `SELECT h.user_id AS user_id, a.id AS account_id, SUM(h.held) AS held FROM (${heldSql}) h
         LEFT JOIN ledger_accounts a ON a.user_id = h.user_id AND a.kind = 'fund' AND a.asset = ?
         ${userId === undefined ? '' : 'WHERE h.user_id = ?'}
         GROUP BY h.user_id, a.id`,
      )
      .all(...(userId === undefined ? [asset] : [asset, userId])) as { user_id: bigint; account_id: bigint | null; held: bigint }[]
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

/**
 * Checks every ledger invariant over the whole database and lists each violation; `ok` when none.
 * Read-only, in one read transaction (a consistent snapshot while the server keeps writing).
 */
export function audit(sqlite: SqlConnection, opts: AuditOptions = {}): AuditReport {
  const holders = opts.holders ?? registry
  const run = () => runAudit(sqlite, holders)
  return sqlite.inTransaction ? run() : sqlite.transaction(run)()
}

function runAudit(sqlite: SqlConnection, holders: ReadonlyMap<string, FrozenHolder>): AuditReport {
  const violations: Violation[] = []
  const all = <T>(sql: string, ...params: unknown[]) => sqlite.prepare(sql).all(...params) as T[]
  const one = <T>(sql: string) => sqlite.prepare(sql).get() as T

  // Totals, per asset and account kind; summed in JS as bigint.
  const groups = all<{ asset: Asset; kind: string; n: bigint; available: bigint; frozen: bigint }>(
    `SELECT asset, kind, COUNT(*) AS n, SUM(available) AS available, SUM(frozen) AS frozen
     FROM ledger_accounts GROUP BY asset, kind ORDER BY asset, kind`,
  )
  const byAsset = new Map<Asset, AssetTotals>()
  for (const g of groups) {
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
  for (const r of all<AccountLabelRow & { available: bigint; frozen: bigint }>(
    `SELECT id, user_id, kind, asset, available, frozen FROM ledger_accounts
     WHERE kind NOT LIKE 'custody:%' AND (available < 0 OR frozen < 0) ORDER BY id`,
  )) {
    for (const b of ['available', 'frozen'] as const) {
      if (r[b] < 0n) {
        violations.push({ rule: 'negative-balance', accountId: r.id, asset: r.asset, actual: r[b], message: `${label(r)}: ${b} is ${money(r[b])}` })
      }
    }
  }

  // (3) Stored balances are the sum of their entries.
  for (const r of all<AccountLabelRow & { available: bigint; frozen: bigint; e_available: bigint; e_frozen: bigint }>(
    `SELECT a.id, a.user_id, a.kind, a.asset, a.available, a.frozen,
            COALESCE(s.e_available, 0) AS e_available, COALESCE(s.e_frozen, 0) AS e_frozen
     FROM ledger_accounts a
     LEFT JOIN (
       SELECT account_id,
              SUM(CASE WHEN bucket = 'available' THEN delta ELSE 0 END) AS e_available,
              SUM(CASE WHEN bucket = 'frozen' THEN delta ELSE 0 END) AS e_frozen
       FROM ledger_entries GROUP BY account_id
     ) s ON s.account_id = a.id
     WHERE a.available <> COALESCE(s.e_available, 0) OR a.frozen <> COALESCE(s.e_frozen, 0)
     ORDER BY a.id`,
  )) {
    if (r.available !== r.e_available) {
      violations.push({
        rule: 'stored-vs-entries',
        accountId: r.id,
        asset: r.asset,
        expected: r.e_available,
        actual: r.available,
        message: `${label(r)}: available stored ${money(r.available)}, entries sum to ${money(r.e_available)}`,
      })
    }
    if (r.frozen !== r.e_frozen) {
      violations.push({
        rule: 'stored-vs-entries',
        accountId: r.id,
        asset: r.asset,
        expected: r.e_frozen,
        actual: r.frozen,
        message: `${label(r)}: frozen stored ${money(r.frozen)}, entries sum to ${money(r.e_frozen)}`,
      })
    }
  }

  // (4) Every posting balances per asset, and has entries.
  for (const r of all<{ posting_id: bigint; ref: string; asset: Asset; s: bigint }>(
    `SELECT e.posting_id, p.ref, a.asset, SUM(e.delta) AS s
     FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_postings p ON p.id = e.posting_id
     GROUP BY e.posting_id, p.ref, a.asset HAVING SUM(e.delta) <> 0 ORDER BY e.posting_id`,
  )) {
    violations.push({
      rule: 'posting-unbalanced',
      postingId: r.posting_id,
      asset: r.asset,
      expected: 0n,
      actual: r.s,
      message: `posting ${r.posting_id} (${r.ref}): ${r.asset} entries sum to ${money(r.s)}, not 0`,
    })
  }
  for (const r of all<{ id: bigint; ref: string }>(
    `SELECT id, ref FROM ledger_postings WHERE id NOT IN (SELECT posting_id FROM ledger_entries) ORDER BY id`,
  )) {
    violations.push({ rule: 'posting-empty', postingId: r.id, message: `posting ${r.id} (${r.ref}) has no entries` })
  }
  for (const r of all<{ id: bigint; posting_id: bigint; user_id: bigint | null; owner: bigint | null }>(
    `SELECT e.id, e.posting_id, e.user_id, a.user_id AS owner FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE e.user_id <> a.user_id OR (e.user_id IS NULL) <> (a.user_id IS NULL) ORDER BY e.id`,
  )) {
    violations.push({
      rule: 'entry-owner',
      postingId: r.posting_id,
      message: `entry ${r.id} of posting ${r.posting_id} names user ${r.user_id ?? 'none'}, its account belongs to ${r.owner ?? 'the platform'}`,
    })
  }

  // (5) Frozen is exactly what the holders hold.
  const held = new Map<bigint, bigint>()
  for (const [name, holder] of holders) {
    let m: Map<bigint, bigint>
    try {
      m = holder(sqlite)
    } catch (err) {
      violations.push({ rule: 'holder-failed', message: `frozen holder "${name}" failed: ${err instanceof Error ? err.message : String(err)}` })
      continue
    }
    for (const [id, amount] of m) held.set(id, (held.get(id) ?? 0n) + amount)
  }
  const frozenRows = all<AccountLabelRow & { frozen: bigint }>(`SELECT id, user_id, kind, asset, frozen FROM ledger_accounts WHERE frozen <> 0 ORDER BY id`)
  const seen = new Set<bigint>()
  const byId = sqlite.prepare('SELECT id, user_id, kind, asset, frozen FROM ledger_accounts WHERE id = ?')
  const check = (r: AccountLabelRow & { frozen: bigint }) => {
    seen.add(r.id)
    const expected = held.get(r.id) ?? 0n
    if (expected !== r.frozen) {
      violations.push({
        rule: 'frozen-vs-holders',
        accountId: r.id,
        asset: r.asset,
        expected,
        actual: r.frozen,
        message: `${label(r)}: frozen ${money(r.frozen)}, holders hold ${money(expected)}`,
      })
    }
  }
  for (const r of frozenRows) check(r)
  for (const [id, amount] of held) {
    if (seen.has(id)) continue
    const r = byId.get(id) as (AccountLabelRow & { frozen: bigint }) | undefined
    if (r) check(r)
    else violations.push({ rule: 'frozen-vs-holders', accountId: id, expected: amount, actual: 0n, message: `holders hold ${money(amount)} on account ${id}, which does not exist` })
  }

  const counts = one<{ accounts: bigint; postings: bigint; entries: bigint }>(
    `SELECT (SELECT COUNT(*) FROM ledger_accounts) AS accounts, (SELECT COUNT(*) FROM ledger_postings) AS postings,
            (SELECT COUNT(*) FROM ledger_entries) AS entries`,
  )
  return {
    ok: violations.length === 0,
    totals,
    counts: { accounts: Number(counts.accounts), postings: Number(counts.postings), entries: Number(counts.entries) },
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

