import { isBookData } from '../../contract/bookChecksum.ts'

// What another process hands this one to push to its sockets (server/roles/bus.ts): checked before
// any socket sees it, since a NOTIFY can come from any session of the database. A push must be the
// OKX envelope of DESIGN §5 for exactly the stream it travels on — a frame on books:X naming another
// market or channel would reach subscribers who never asked for it — and book items must carry what
// the apps' books chain and verify by (seqId, prevSeqId, checksum, readable levels).

/** The bus topic of a user's private stream: only that user's connections receive it. */
export function userTopic(stream: string, userId: number): string {
  return `${stream}#${userId}`
}

/** The stream a hub topic is: private topics are `<stream>#<userId>`. */
export function streamOfTopic(topic: string): string {
  return topic.replace(/#\d+$/, '')
}

/** Why the payload is not a push of the topic's stream, or null when it is one. */
export function pushRefusal(topic: string, v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not an object'
  const f = v as Record<string, unknown>
  if (f.action !== 'snapshot' && f.action !== 'update') return 'action is neither snapshot nor update'
  if (!Array.isArray(f.data)) return 'data is not a list'
  const arg = f.arg
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) return 'no arg'
  const { channel, instId } = arg as Record<string, unknown>
  const stream = streamOfTopic(topic)
  const colon = stream.indexOf(':')
  const [wantChannel, wantInst] = colon < 0 ? [stream, undefined] : [stream.slice(0, colon), stream.slice(colon + 1)]
  if (channel !== wantChannel) return `channel is not ${wantChannel}`
  if (instId !== wantInst) return wantInst === undefined ? 'an instId on a stream without one' : `instId is not ${wantInst}`
  if (wantChannel === 'books' && !f.data.every(isBookData)) return 'a book item without its levels, seqId, prevSeqId or checksum'
  return null
}
