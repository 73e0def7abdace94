// The chart's one door to the socket: if the socket module's entry point changes, only this file does.

import type { PushFrame } from '../../../../contract/socket.ts'
import { getSocket } from '../../../api/socket.ts'

/** Listens to one stream; the returned function stops listening. */
export function subscribeStream(stream: string, onPush: (frame: PushFrame<unknown>) => void): () => void {
  return getSocket().subscribe(stream, onPush)
}
