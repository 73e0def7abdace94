// Which PostgreSQL driver the server runs on (issue 34 §1: "choose between `pg` and `postgres` by
// measuring"): one order-shaped transaction — a journal row, an order row, a balance update — through
// node-postgres' pool and Postgres.js, from 1, 8 and 50 callers at once; and the batched shape of §3
// as a market's one writer runs it, 50 commands written by one transaction of multi-row statements
// (one writer: two batches updating the same balances in different orders would deadlock, which is
// why a market has one). Bare drivers on the bench's cluster, no server: what the driver and its
// round trips cost, which is the ceiling a service on it can reach.

import pg from 'pg'
import postgres from 'postgres'
import { onPostgres } from '../support/postgres.ts'
import { info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'pgdriver'

const SCHEMA = `
  CREATE TABLE j (seq BIGSERIAL PRIMARY KEY, command TEXT NOT NULL, at BIGINT NOT NULL);
  CREATE TABLE o (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, price BIGINT NOT NULL, size BIGINT NOT NULL, status TEXT NOT NULL);
  CREATE TABLE b (id BIGINT PRIMARY KEY, available BIGINT NOT NULL CHECK (available >= 0));
  INSERT INTO b SELECT g, 1000000000000 FROM generate_series(1, 64) g;`
const J = 'INSERT INTO j (command, at) VALUES ($1, $2)'
const O = "INSERT INTO o (id, user_id, price, size, status) VALUES ($1, $2, $3, $4, 'pending')"
const B = 'UPDATE b SET available = available - $2 WHERE id = $1'
const POOL = 8
const SECONDS = 2
const BATCH = 50

/** One caller's next order id: unique across callers and drivers of one run. */
let nextId = 0
const order = () => {
  const id = ++nextId
  return { id, user: (id % 64) + 1, price: 25_000_000 + (id % 100), size: 1_000_000_000 }
}

interface Measured {
  perSecond: number
  p99Ms: number
}

/** `callers` loops of `once` for SECONDS: transactions a second, and the p99 of one's latency. */
async function drive(callers: number, once: () => Promise<void>): Promise<Measured> {
  const latencies: number[] = []
  const until = performance.now() + SECONDS * 1000
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const s = performance.now()
        await once()
        latencies.push(performance.now() - s)
      }
    }),
  )
  latencies.sort((a, b) => a - b)
  return { perSecond: latencies.length / ((performance.now() - t0) / 1000), p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0 }
}

type Order = ReturnType<typeof order>

/** One order's three statements' parameters: the journal row, the order row, the balance update. */
const paramsOf = (o: Order) => ({ j: [`place ${o.id}`, Date.now()], o: [o.id, o.user, o.price, o.size], b: [o.user, 1] })

/** A batch of orders as the writer of §3 sends it: three multi-row statements, whatever its size. */
function batchOf(os: Order[]): { text: string; values: (string | number | number[])[] }[] {
  return [
    { text: `INSERT INTO j (command, at) VALUES ${values(os.length, 2)}`, values: os.flatMap((o) => paramsOf(o).j) },
    { text: `INSERT INTO o (id, user_id, price, size, status) VALUES ${values(os.length, 4).replaceAll(')', ", 'pending')")}`, values: os.flatMap((o) => paramsOf(o).o) },
    { text: 'UPDATE b SET available = available - d.n FROM (SELECT unnest($1::bigint[]) AS id, unnest($2::bigint[]) AS n) d WHERE b.id = d.id', values: [os.map((o) => o.user), os.map(() => 1)] },
  ]
}

/** `once` driven from 1, 8 and 50 callers. */
async function atEachLoad(once: () => Promise<void>): Promise<Map<number, Measured>> {
  const out = new Map<number, Measured>()
  for (const callers of [1, 8, 50]) out.set(callers, await drive(callers, once))
  return out
}

function rowsOf(driver: string, byCallers: Map<number, Measured>, batched: Measured): Row[] {
  const out: Row[] = []
  for (const [callers, m] of byCallers) {
    out.push(info({ name: `PostgreSQL driver ${driver}: order transactions/s, ${callers} caller${callers > 1 ? 's' : ''} (p99 ${m.p99Ms.toFixed(1)} ms)`, value: m.perSecond, unit: '/s', format: (v) => `${Math.round(v).toLocaleString('en-US')}/s` }))
  }
  out.push(info({ name: `PostgreSQL driver ${driver}: commands/s written ${BATCH} to a transaction of multi-row statements, one writer`, value: batched.perSecond * BATCH, unit: '/s', format: (v) => `${Math.round(v).toLocaleString('en-US')}/s` }))
  return out
}

/** `n` rows of `width` values as `($1, $2), ($3, $4)…` from `first`. */
const values = (n: number, width: number, first = 1) => Array.from({ length: n }, (_, i) => `(${Array.from({ length: width }, (_, k) => `$${first + i * width + k}`).join(', ')})`).join(', ')

async function measure(url: string): Promise<Row[]> {
  const setup = new pg.Client({ connectionString: url })
  await setup.connect()
  try {
    await setup.query(SCHEMA)
  } finally {
    await setup.end()
  }
  const rows: Row[] = []

  const pool = new pg.Pool({ connectionString: url, max: POOL })
  try {
    const byCallers = await atEachLoad(async () => {
      const p = paramsOf(order())
      const c = await pool.connect()
      try {
        await c.query('BEGIN')
        // Named: prepared once per connection, as the server's hot paths would be.
        await c.query({ name: 'j', text: J, values: p.j })
        await c.query({ name: 'o', text: O, values: p.o })
        await c.query({ name: 'b', text: B, values: p.b })
        await c.query('COMMIT')
      } finally {
        c.release()
      }
    })
    const batched = await drive(1, async () => {
      const c = await pool.connect()
      try {
        await c.query('BEGIN')
        for (const st of batchOf(Array.from({ length: BATCH }, order))) await c.query(st.text, st.values)
        await c.query('COMMIT')
      } finally {
        c.release()
      }
    })
    rows.push(...rowsOf(`pg (node-postgres, pool of ${POOL})`, byCallers, batched))
  } finally {
    await pool.end()
  }

  const sql = postgres(url, { max: POOL, onnotice: () => {} })
  try {
    const byCallers = await atEachLoad(async () => {
      const p = paramsOf(order())
      // Postgres.js pipelines the statements of a transaction: they go out without waiting for each answer.
      await sql.begin((tx) => [tx.unsafe(J, p.j), tx.unsafe(O, p.o), tx.unsafe(B, p.b)])
    })
    const batched = await drive(1, async () => {
      await sql.begin((tx) => batchOf(Array.from({ length: BATCH }, order)).map((st) => tx.unsafe(st.text, st.values)))
    })
    rows.push(...rowsOf(`postgres (Postgres.js, ${POOL} connections)`, byCallers, batched))
  } finally {
    await sql.end()
  }
  return rows
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  return onPostgres(ctx, 'pg driver', measure)
}
