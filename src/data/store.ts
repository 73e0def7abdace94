// The Dexie side of src/data, as one chunk: index.ts and persister.ts import it with `await
// import('./store.ts')` the first time data is needed, so Dexie is never in the first load.

export { deleteAccountData, readPersistedClient, writePersistedClient, deletePersistedClient } from './db.ts'
export { kvGet, kvSet, kvDelete, kvUpdate } from './kv.ts'
export { enqueue, listOutbox, updatePending, cancel, flushOutbox } from './outbox.ts'
export { putCandles, readCandles, trimCandles, latestCandle } from './klines.ts'
