import { describe, expect, it } from 'vitest'
import { makeError } from 'ethers'
import { WalletError, rpcCodeOf, walletErrorKey } from '../../../src/wallet/errors.ts'

const rpc = (code: number, message = 'rpc error') => Object.assign(new Error(message), { code })

describe('rpcCodeOf', () => {
  it('rpcCodeOf reads a numeric code on the error itself', () => {
    expect(rpcCodeOf({ code: 4001 })).toBe(4001)
    expect(rpcCodeOf(rpc(-32603))).toBe(-32603)
  })

  it('rpcCodeOf maps ethers v6 ACTION_REJECTED to 4001', () => {
    const e = makeError('user rejected action', 'ACTION_REJECTED', { action: 'signMessage', reason: 'rejected' })
    expect(rpcCodeOf(e)).toBe(4001)
  })

  it('rpcCodeOf finds a code nested in error.info.error', () => {
    expect(rpcCodeOf({ code: 'UNKNOWN_ERROR', info: { error: { code: -32602, message: 'bad params' } } })).toBe(-32602)
    const e = makeError('could not coalesce error', 'UNKNOWN_ERROR', { error: { code: -32603 }, payload: {} })
    expect(rpcCodeOf({ ...e, info: { error: { code: -32603 } } })).toBe(-32603)
  })

  it('rpcCodeOf follows .error and .cause chains', () => {
    expect(rpcCodeOf({ error: { code: 4001 } })).toBe(4001)
    expect(rpcCodeOf(new Error('outer', { cause: rpc(-32602) }))).toBe(-32602)
    expect(rpcCodeOf({ cause: { error: { info: { error: { code: 4001 } } } } })).toBe(4001)
  })

  it('rpcCodeOf stops at the outermost numeric code', () => {
    expect(rpcCodeOf({ code: -32603, error: { code: 4001 } })).toBe(-32603)
  })

  it('rpcCodeOf returns undefined for non-objects, codeless errors and string codes', () => {
    for (const e of [undefined, null, 0, 4001, 'oops', new Error('x'), {}, { code: '4001' }, { code: 'NETWORK_ERROR' }]) {
      expect(rpcCodeOf(e), String(e)).toBeUndefined()
    }
  })

  it('rpcCodeOf terminates on a cyclic chain', () => {
    const a: { cause?: unknown } = {}
    const b = { error: a }
    a.cause = b
    expect(rpcCodeOf(a)).toBeUndefined()
  })
})

describe('walletErrorKey', () => {
  it('walletErrorKey maps 4001 to userRejected while connecting and signCancelled while signing', () => {
    expect(walletErrorKey(rpc(4001), 'connect')).toBe('userRejected')
    expect(walletErrorKey(rpc(4001), 'sign')).toBe('signCancelled')
  })

  it('walletErrorKey treats an ethers ACTION_REJECTED like 4001', () => {
    const e = makeError('user rejected action', 'ACTION_REJECTED', { action: 'requestAccess', reason: 'rejected' })
    expect(walletErrorKey(e, 'connect')).toBe('userRejected')
    expect(walletErrorKey(e, 'sign')).toBe('signCancelled')
  })

  it('walletErrorKey finds a nested 4001 in error.info.error.code', () => {
    const e = { code: 'UNKNOWN_ERROR', info: { error: { code: 4001 } } }
    expect(walletErrorKey(e, 'sign')).toBe('signCancelled')
    expect(walletErrorKey(e, 'connect')).toBe('userRejected')
  })

  it('walletErrorKey maps -32602 to signParamError and -32603 to internalError while signing', () => {
    expect(walletErrorKey(rpc(-32602), 'sign')).toBe('signParamError')
    expect(walletErrorKey(rpc(-32603), 'sign')).toBe('internalError')
    expect(walletErrorKey({ info: { error: { code: -32602 } } }, 'sign')).toBe('signParamError')
  })

  it('walletErrorKey maps every non-4001 failure while connecting to connectFailed', () => {
    expect(walletErrorKey(rpc(-32602), 'connect')).toBe('connectFailed')
    expect(walletErrorKey(rpc(-32603), 'connect')).toBe('connectFailed')
    expect(walletErrorKey(rpc(4100), 'connect')).toBe('connectFailed')
    expect(walletErrorKey(new Error('boom'), 'connect')).toBe('connectFailed')
  })

  it('walletErrorKey maps an unknown failure to signFailed / connectFailed', () => {
    for (const e of [new Error('boom'), 'string error', null, undefined, {}, rpc(4100), rpc(-32000), { code: 'NETWORK_ERROR' }]) {
      expect(walletErrorKey(e, 'sign'), String(e)).toBe('signFailed')
      expect(walletErrorKey(e, 'connect'), String(e)).toBe('connectFailed')
    }
  })

  it('walletErrorKey passes a WalletError key through whatever the phase', () => {
    expect(walletErrorKey(new WalletError('install'), 'connect')).toBe('install')
    expect(walletErrorKey(new WalletError('install'), 'sign')).toBe('install')
    expect(walletErrorKey(new WalletError('signParamError', rpc(4001)), 'sign')).toBe('signParamError')
  })
})

describe('WalletError', () => {
  it('WalletError carries its key in the message and keeps the cause', () => {
    const cause = rpc(4001)
    const e = new WalletError('signCancelled', cause)
    expect(e).toBeInstanceOf(Error)
    expect(e.name).toBe('WalletError')
    expect(e.message).toBe('wallet.signCancelled')
    expect(e.key).toBe('signCancelled')
    expect(e.cause).toBe(cause)
    expect('cause' in new WalletError('install')).toBe(false)
  })
})
