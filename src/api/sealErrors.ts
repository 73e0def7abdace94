// The envelope's two failures, apart from its crypto (sealCrypto.ts): the first-load client names
// them, and sealCrypto pulls in the contract's schemas, which load only once the envelope is on.

export class SealUnavailable extends Error {
  constructor() {
    super('WebCrypto is not available: the envelope needs a secure context (https)')
  }
}

/** The app's refusal of an answer that is not the server's: a sign that does not match, or data that does not decrypt. */
export class SealBroken extends Error {}
