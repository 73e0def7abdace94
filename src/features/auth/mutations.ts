import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { IsRegisterResult, LoginMessage, LoginResult } from '../../../contract/auth.ts'
import { get, post } from '../../api/client.ts'
import { account, clearToken, setAccount, setToken } from '../../api/session.ts'
import { clearAccount } from '../../data/index.ts'
import { disconnectWallets, forgetSignInWallet, rememberSignInWallet, type ConnectedWallet } from '../../wallet/index.ts'
import { userQueries } from '../user/queries.ts'
import { forgetInviteCode } from './invite.ts'
import { takeReturn } from '../../api/resume.ts'
import { dropDrafts } from '../../app/drafts.ts'

export const isRegistered = async (address: string) => (await post<IsRegisterResult>('auth/isRegister', { address })).registered

/** Asks for a sign-in message, has the wallet sign it, and exchanges the signature for a token. */
export function useSignIn() {
  const qc = useQueryClient()
  return useMutation({
    meta: { silent: true }, // the sheet shows its own error in place
    /** chainId: the chain the message names (signInChain.ts). */
    mutationFn: async ({ wallet, code, chainId }: { wallet: ConnectedWallet; code: string; chainId: number }) => {
      const msg = await get<LoginMessage>('auth/loginMessage', { address: wallet.address, chainId, code: code || undefined })
      const signature = await wallet.sign(msg.message)
      const res = await post<LoginResult>('auth/login', { address: wallet.address, message: msg.message, sign_message: signature, code })
      setToken(res.token, res.idle_ms)
      // In the same tick as the token: a reload at any later moment takes this wallet up again (no picker).
      rememberSignInWallet(wallet.label)
      const signedInAt = Date.now()
      const me = await qc.fetchQuery(userQueries.info())
      setAccount(me.id)
      // Back where an expired login left this account, with its forms as typed; another account's are gone.
      const resumeAt = takeReturn(account.value)
      dropDrafts(account.value)
      // What the screens hold was fetched as a visitor, or saved in an earlier session: look again as
      // this user now, so home says signed in with figures of this moment, not "a minute ago".
      void qc.invalidateQueries({ predicate: (q) => q.state.dataUpdatedAt < signedInAt })
      return { registered: msg.registered, resumeAt }
    },
    onSuccess: () => forgetInviteCode(),
  })
}

export function useSignOut() {
  return useMutation({
    meta: { silent: true },
    mutationFn: async () => {
      try {
        await post<null>('auth/logout')
      } finally {
        // Signed out locally whatever the network says: the token is gone from this phone, and with
        // an explicit sign-out the account's data on it too (its queued changes were confirmed away).
        const was = account.value
        clearToken()
        dropDrafts()
        forgetSignInWallet()
        void clearAccount(was)
        disconnectWallets().catch(() => undefined)
      }
    },
  })
}
