// Operators in integration tests (issue 35): added the way the CLI and the console add them (the one
// service function), and signed in through the console's sign-in with an ethers wallet.
import type { Wallet } from 'ethers'
import type { OperatorNonce, OperatorRole, OperatorSession } from '../../../contract/operator.ts'
import { OPERATOR_PREFIX } from '../../../contract/operator.ts'
import { addOperator, shellActor } from '../../../server/modules/operator/operators.ts'
import { freshWallet, type RequestOptions, type Res, type TestServer } from './server.ts'

export const OP = OPERATOR_PREFIX

/** A new operator of `role` (added as a shell user would), with their wallet. */
export async function operatorOf(s: TestServer, role: OperatorRole, wallet: Wallet = freshWallet()): Promise<Wallet> {
  await addOperator(s.ctx.sql, { address: wallet.address, role, by: shellActor('test'), reason: null, now: s.clock.now() })
  return wallet
}

export function operatorNonce(s: TestServer, wallet: Wallet | string, opts: RequestOptions = {}): Promise<Res<OperatorNonce>> {
  const address = typeof wallet === 'string' ? wallet : wallet.address
  return s.get<OperatorNonce>(`${OP}/auth/nonce?address=${address}`, opts)
}

export function operatorVerify(s: TestServer, body: unknown, opts: RequestOptions = {}): Promise<Res<OperatorSession>> {
  return s.post<OperatorSession>(`${OP}/auth/verify`, body, opts)
}

/** The whole console sign-in: a message issued, signed and verified; answers the session. */
export async function operatorSignIn(s: TestServer, wallet: Wallet): Promise<OperatorSession> {
  const issued = await operatorNonce(s, wallet)
  if (issued.statusCode !== 200) throw new Error(`operator nonce answered ${issued.statusCode}: ${issued.body}`)
  const { message } = issued.body_.data
  const res = await operatorVerify(s, { address: wallet.address, message, sign_message: await wallet.signMessage(message) })
  if (res.statusCode !== 200) throw new Error(`operator verify answered ${res.statusCode}: ${res.body}`)
  return res.body_.data
}

/** DELETE <prefix>/operators/:address with its body (the reason). */
export async function removeOperatorHttp(s: TestServer, address: string, body: unknown, opts: RequestOptions = {}): Promise<Res<unknown>> {
  const res = await s.inject({
    method: 'DELETE',
    url: `${OP}/operators/${address}`,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.lang ? { lang: opts.lang } : {}) },
    payload: body as object,
  })
  return Object.assign(res, { body_: JSON.parse(res.body) as Res<unknown>['body_'] })
}
