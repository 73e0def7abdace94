// Makes the envelope's signing key when the file does not exist yet, and prints its public half: the
// value of NADI_ENVELOPE_PUBLIC_KEY for a build that must not see the private key (docs/envelope.md).
//   npx tsx scripts/envelope-key.ts /etc/nadi/envelope-key.pem
import { readEnvelopeKey } from '../server/envelopeKey.ts'

const file = process.argv[2]
if (!file || process.argv.length > 3) {
  console.error('usage: npx tsx scripts/envelope-key.ts <key file>   (made when missing; prints its public key)')
  process.exit(2)
}
try {
  console.log(readEnvelopeKey(file, { create: true }).publicKey)
} catch (e) {
  console.error((e as Error).message)
  process.exit(1)
}
