// Operator routes under the production envelope (issue 35 item 1, docs/envelope.md): they are sealed
// by the same hooks as the app's routes, the sign-in is bound to the handshake its message was asked
// under, and an operator's token counts only under the handshake it signed in under.
import { describe, expect, it } from 'vitest'
import { CODE } from '../../contract/constants.ts'
import { SEAL_CODE } from '../../contract/seal.ts'
import type { OperatorNonce, OperatorSession, OplogEntry } from '../../contract/operator.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { translate } from '../../server/i18n.ts'
import { useServers } from './support/server.ts'
import { sealedClientOf } from './support/sealed.ts'
import { OP, operatorOf } from './support/operators.ts'

const start = useServers({ envelope: true, env: { NADI_DEMO: '0' } })

describe('operator routes under the envelope', () => {
  it('refuse a plain request, and sign an operator in sealed, bound to the handshake', async () => {
    const s = await start()
    const admin = await operatorOf(s, 'admin')
    const plain = await s.get(`${OP}/auth/nonce?address=${admin.address}`, { lang: 'EN' })
    expect(plain.statusCode).toBe(400)
    expect(plain.body_).toMatchObject({ code: SEAL_CODE.REQUIRED, msg: translate('EN', 'errors.sealRequired') })

    const c = await sealedClientOf(s)
    await c.handshake()
    const issued = await c.request<OperatorNonce>('GET', `${OP}/auth/nonce`, { query: { address: admin.address } })
    expect(issued).toMatchObject({ status: 200, sealed: true })
    const { message } = issued.body.data
    const session = await c.request<OperatorSession>('POST', `${OP}/auth/verify`, { body: { address: admin.address, message, sign_message: await admin.signMessage(message) } })
    expect(session).toMatchObject({ status: 200, sealed: true })
    const { token } = session.body.data
    const log = await c.request<PagedList<OplogEntry>>('GET', `${OP}/oplog`, { token })
    expect(log).toMatchObject({ status: 200, sealed: true })
    expect(log.body.data.total).toBe(1)

    // The token lifted and sent under another handshake is "sign in again".
    const thief = await sealedClientOf(s)
    await thief.handshake()
    const stolen = await thief.request('GET', `${OP}/oplog`, { token, lang: 'EN' })
    expect(stolen.status).toBe(401)
    expect(stolen.body).toMatchObject({ code: CODE.UNAUTHORIZED, msg: translate('EN', 'errors.sealSession') })
  })

  it('a sign-in message asked for under one handshake does not sign in under another', async () => {
    const s = await start()
    const admin = await operatorOf(s, 'admin')
    const asked = await sealedClientOf(s)
    await asked.handshake()
    const { message } = (await asked.request<OperatorNonce>('GET', `${OP}/auth/nonce`, { query: { address: admin.address } })).body.data
    const other = await sealedClientOf(s)
    await other.handshake()
    const res = await other.request('POST', `${OP}/auth/verify`, { body: { address: admin.address, message, sign_message: await admin.signMessage(message) }, lang: 'EN' })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(translate('EN', 'errors.loginMessageInvalid'))
    expect(await s.count('SELECT count(*) FROM operator_sessions')).toBe(0)
  })
})
