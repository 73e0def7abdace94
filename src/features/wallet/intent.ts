// One Idempotency-Key per intended money movement (DESIGN §3). A press that got no answer (no
// response, or a 5xx the server does not keep) may have gone through: pressing again with the same
// values sends the same key, and the server applies it once. Any answer settles the intent; the next
// press is a new one. (A 4xx answer is kept by the server for 24 h, so reusing its key would only
// replay that refusal after the user fixed the cause.)

export interface IntentKeys {
  /** The key for this payload: the pending one when the payload is unchanged, else a fresh one. */
  keyFor(payload: unknown): string
  /** After a call: an answered call (success or refusal) ends the intent; an unknown outcome keeps it. */
  settle(outcomeUnknown: boolean): void
}

export function intentKeys(newKey: () => string): IntentKeys {
  let pending: { sig: string; key: string } | null = null
  return {
    keyFor(payload) {
      const sig = JSON.stringify(payload)
      if (!pending || pending.sig !== sig) pending = { sig, key: newKey() }
      return pending.key
    },
    settle(outcomeUnknown) {
      if (!outcomeUnknown) pending = null
    },
  }
}
