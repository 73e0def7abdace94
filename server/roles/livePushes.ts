// The pushes that jobs cause or that are read back from the database — a deposit credited
// (user@deposit), a withdrawal's progress (user@withdraw), the live ranking — sent by one process
// only: the server alone (--role all, straight to its hub), or the jobs leader through the bus, which
// every API process relays to its sockets (docs/live-data.md). Run in every API process instead,
// each would send its own copy to every socket.

import { onDeposit } from '../chain/depositWatcher.ts'
import type { Ctx } from '../context.ts'
import type { Publisher } from '../exchange/exchange.ts'
import { startRankingPushes } from '../modules/ranking/service.ts'
import { startWithdrawPushes } from '../modules/withdraw/push.ts'

export function startLivePushes(ctx: Ctx, publisher: Publisher): () => void {
  const offDeposits = onDeposit(ctx, ({ userId, deposit }) => publisher.publishToUser(userId, 'user@deposit', { arg: { channel: 'user@deposit' }, action: 'update', data: [deposit] }))
  const stopWithdraws = startWithdrawPushes(ctx, (userId, w) => publisher.publishToUser(userId, 'user@withdraw', { arg: { channel: 'user@withdraw' }, action: 'update', data: [w] }))
  const stopRanking = startRankingPushes(ctx, publisher)
  return () => {
    offDeposits()
    stopWithdraws()
    stopRanking()
  }
}
