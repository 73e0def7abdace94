import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

export interface BenchServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string
  rootInviteCode: string
  close(): Promise<void>
}

/**
 * The real server, built by buildApp() in this process, on a free loopback port, over a throwaway
 * data directory. Demo mode is on so the home screen has its banners, notices and public config.
 * `root` is the checkout whose server code runs (another commit's, for the bench's baseline: its demo
 * content names the images its app ships); `distDir` the app it serves, by default root's dist/.
 */
export async function startServer(root: string, distDir = path.join(root, 'dist')): Promise<BenchServer> {
  const { buildApp } = (await import(pathToFileURL(path.join(root, 'server/app.ts')).href)) as typeof import('../../server/app.ts')
  const { loadConfig } = (await import(pathToFileURL(path.join(root, 'server/config.ts')).href)) as typeof import('../../server/config.ts')
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-'))
  try {
    const config = loadConfig(
      {
        NADI_ENV: 'test',
        NADI_DATA_DIR: dataDir,
        NADI_DEMO: '1',
        NADI_ROOT_INVITE_CODE: 'BENCH001',
        NADI_DIST_DIR: distDir,
        LOG_LEVEL: 'silent',
        PORT: '0',
      },
      root,
    )
    const { app, rootInviteCode } = await buildApp({ config })
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      return {
        origin: new URL(address).origin,
        rootInviteCode,
        async close() {
          await app.close()
          await fs.rm(dataDir, { recursive: true, force: true })
        },
      }
    } catch (err) {
      await app.close()
      throw err
    }
  } catch (err) {
    await fs.rm(dataDir, { recursive: true, force: true })
    throw err
  }
}
