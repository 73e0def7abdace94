// The envelope's long-term signing key (docs/envelope.md): one P-256 key whose public half is built
// into the app and whose private half signs every handshake. The build (vite.config.ts) and the
// server read the same file, so the app always carries the key of the server it was built for.
import crypto, { type KeyObject } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { publicKeyOf } from './http/sealCrypto.ts'

/** NADI_ENVELOPE_KEY_FILE, else the key kept beside the data. */
export const envelopeKeyFile = (env: NodeJS.ProcessEnv, dataDir: string) => path.resolve(env.NADI_ENVELOPE_KEY_FILE || path.join(dataDir, 'envelope-key.pem'))

/** Written by the build into dist/ (a dotfile the static server never serves): the key the app was built with. */
export const BUILT_KEY_FILE = '.envelope-key'

export interface EnvelopeKey {
  signing: KeyObject
  /** The public half as the app holds it: an uncompressed P-256 point, base64url. */
  publicKey: string
}

/**
 * Reads the key; when the file does not exist and `create` is set (development, tests, the demo), makes
 * one (PKCS#8 PEM, readable by its owner only). Production never makes one: a server with a key the
 * app was not built with could answer no handshake the app accepts.
 */
export function readEnvelopeKey(file: string, { create }: { create: boolean }): EnvelopeKey {
  if (!fs.existsSync(file)) {
    if (!create) throw new Error(`the envelope's signing key ${file} does not exist: make one with \`openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ${file}\`, and build the app with the same NADI_ENVELOPE_KEY_FILE`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
    try {
      fs.writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' })
    } catch (e) {
      // Another process (a second build, a test beside it) made it first: read theirs.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
  }
  let signing: KeyObject
  try {
    signing = crypto.createPrivateKey(fs.readFileSync(file))
  } catch (e) {
    throw new Error(`the envelope's signing key ${file} is not a private key in PEM: ${(e as Error).message}`, { cause: e })
  }
  if (signing.asymmetricKeyType !== 'ec') throw new Error(`the envelope's signing key ${file} must be an EC P-256 key`)
  return { signing, publicKey: publicKeyOf(signing) }
}

/** The key the app in `distDir` was built with, or null when there is no built app there (an API-only deploy) or it predates the envelope. */
export function builtEnvelopeKey(distDir: string): string | null {
  try {
    return fs.readFileSync(path.join(distDir, BUILT_KEY_FILE), 'utf8').trim()
  } catch {
    return null
  }
}
