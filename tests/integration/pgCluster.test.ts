// The throwaway PostgreSQL cluster of the tests and the bench (server/db/pg/cluster.ts): a port taken
// by someone else between choosing it and binding it is not a failed run.
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort, startCluster } from '../../server/db/pg/cluster.ts'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { testBackend } from '../support/pg.ts'

describe.runIf(testBackend() === 'postgres')('a throwaway cluster', () => {
  it('starts on another port when the one it chose was taken before it bound it', { timeout: 120_000 }, async () => {
    const squatter = net.createServer()
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve))
    const taken = (squatter.address() as net.AddressInfo).port
    const picked: number[] = []
    const cluster = await startCluster({
      pickPort: async () => {
        const port = picked.length === 0 ? taken : await freePort()
        picked.push(port)
        return port
      },
    })
    try {
      expect(picked).toHaveLength(2)
      expect(cluster.port).toBe(picked[1])
      const conn = new PgPool(cluster.url, { appName: 'nadi tests', max: 1 })
      try {
        expect(await conn.get(statement('SELECT 1 AS one'))).toEqual({ one: 1n })
      } finally {
        await conn.close()
      }
    } finally {
      cluster.stop()
      squatter.close()
    }
  })
})
