import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { getSocket } from '../../api/socket.ts'

/**
 * Money that moves outside this screen's own actions — a deposit gaining confirmations, a withdrawal
 * advancing, an order filling — refreshes what shows it as soon as the server pushes it on the
 * user's private streams (DESIGN §5). The screens' polling stays as the fallback when the socket is down.
 */
export function useMoneyPushes(): void {
  const qc = useQueryClient()
  useEffect(() => {
    const socket = getSocket()
    const refresh = (...keys: string[][]) => {
      for (const queryKey of keys) void qc.invalidateQueries({ queryKey })
    }
    const offs = [
      socket.subscribe('user@deposit', () => refresh(['recharge', 'list'], ['wallet'])),
      socket.subscribe('user@withdraw', () => refresh(['withdraw', 'list'], ['wallet'])),
      // The snapshot on subscribe is what the screen just loaded; only later changes matter.
      socket.subscribe('user@balance', (push) => {
        if (push.action === 'update') refresh(['wallet', 'balances'], ['wallet', 'holdings'])
      }),
    ]
    return () => {
      for (const off of offs) off()
    }
  }, [qc])
}
