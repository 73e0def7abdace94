import { describe, expect, it } from 'vitest'
import { Wallet, getBytes, hexlify, toUtf8Bytes, verifyMessage, verifyTypedData } from 'ethers'
import {
  ProviderRpcError,
  createEip1193Provider,
  decodePersonalMessage,
  type Eip1193ProviderOptions,
  type SignerBackend,
} from '../../../src/wallet/eip1193.ts'

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const OTHER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

function setup(opts: Partial<Eip1193ProviderOptions> = {}, backendOverrides: Partial<SignerBackend> = {}) {
  const wallet = new Wallet(KEY)
  const backend: SignerBackend = {
    address: async () => wallet.address,
    signMessage: (m) => wallet.signMessage(m),
    signTypedData: (d, t, v) => wallet.signTypedData(d as never, t as never, v as never),
    ...backendOverrides,
  }
  const provider = createEip1193Provider(backend, { chainId: 56, chains: [56, 92025], ...opts })
  return { wallet, provider }
}

async function rpcError(p: Promise<unknown>): Promise<ProviderRpcError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ProviderRpcError)
  return err as ProviderRpcError
}

describe('createEip1193Provider', () => {
  it('eth_requestAccounts and eth_accounts both return the checksummed wallet address', async () => {
    const { wallet, provider } = setup()
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([wallet.address])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet.address])
  })

  it('eth_requestAccounts announces the account once through accountsChanged', async () => {
    const { wallet, provider } = setup()
    const seen: unknown[] = []
    provider.on('accountsChanged', (a) => seen.push(a))
    await provider.request({ method: 'eth_requestAccounts' })
    await provider.request({ method: 'eth_requestAccounts' })
    expect(seen).toEqual([[wallet.address]])
  })

  it('the first request emits connect with the hex chain id, and only once', async () => {
    const { provider } = setup()
    const seen: unknown[] = []
    provider.on('connect', (info) => seen.push(info))
    await provider.request({ method: 'eth_chainId' })
    await provider.request({ method: 'eth_accounts' })
    expect(seen).toEqual([{ chainId: '0x38' }])
  })

  it('eth_chainId is a 0x-prefixed hex string and net_version the decimal id', async () => {
    const { provider } = setup({ chainId: 92025 })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x16779')
    expect(await provider.request({ method: 'net_version' })).toBe('92025')
  })

  it('personal_sign of 0x-hex data signs the decoded bytes', async () => {
    const { wallet, provider } = setup()
    const bytes = new Uint8Array([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff])
    const sig = (await provider.request({ method: 'personal_sign', params: [hexlify(bytes), wallet.address] })) as string
    expect(verifyMessage(bytes, sig)).toBe(wallet.address)
  })

  it('personal_sign of hex-encoded UTF-8 text recovers the same address as signing the text', async () => {
    const { wallet, provider } = setup()
    const text = 'Sign in to NADI\nNonce: 42'
    const sig = (await provider.request({ method: 'personal_sign', params: [hexlify(toUtf8Bytes(text)), wallet.address] })) as string
    expect(verifyMessage(text, sig)).toBe(wallet.address)
  })

  it('personal_sign of a plain UTF-8 string signs the text itself', async () => {
    const { wallet, provider } = setup()
    const text = 'Hello NADI — 你好'
    const sig = (await provider.request({ method: 'personal_sign', params: [text, wallet.address.toLowerCase()] })) as string
    expect(verifyMessage(text, sig)).toBe(wallet.address)
  })

  it('personal_sign for an address other than the wallet fails with 4100 unauthorized', async () => {
    const { provider } = setup()
    const err = await rpcError(provider.request({ method: 'personal_sign', params: ['0x1234', OTHER] }))
    expect(err.code).toBe(4100)
  })

  it('eth_sign is refused with 4200', async () => {
    const { wallet, provider } = setup()
    const err = await rpcError(provider.request({ method: 'eth_sign', params: [wallet.address, '0x' + '11'.repeat(32)] }))
    expect(err.code).toBe(4200)
  })

  it('an unknown method without an rpc fails with 4200 unsupported', async () => {
    const { provider } = setup()
    const err = await rpcError(provider.request({ method: 'eth_getBalance', params: [OTHER, 'latest'] }))
    expect(err.code).toBe(4200)
    expect(err.message).toMatch(/Unsupported method/)
  })

  it('an unknown method is forwarded to the rpc with the active chain id', async () => {
    const seen: unknown[] = []
    const { provider } = setup({
      rpc: async (chainId, method, params) => {
        seen.push([chainId, method, params])
        return '0x10'
      },
    })
    expect(await provider.request({ method: 'eth_blockNumber' })).toBe('0x10')
    expect(seen).toEqual([[56, 'eth_blockNumber', []]])
  })

  it('an rpc error keeps its numeric code and data', async () => {
    const { provider } = setup({
      rpc: async () => {
        throw Object.assign(new Error('execution reverted'), { code: 3, data: '0x08c379a0' })
      },
    })
    const err = await rpcError(provider.request({ method: 'eth_call', params: [{}, 'latest'] }))
    expect([err.code, err.message, err.data]).toEqual([3, 'execution reverted', '0x08c379a0'])
  })

  it('switching to a chain the wallet does not know fails with 4902 and keeps the chain', async () => {
    const { provider } = setup()
    const changed: unknown[] = []
    provider.on('chainChanged', (c) => changed.push(c))
    const err = await rpcError(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }))
    expect(err.code).toBe(4902)
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x38')
    expect(changed).toEqual([])
  })

  it('switching to a known chain changes eth_chainId and emits chainChanged with the hex id', async () => {
    const { provider } = setup()
    const changed: unknown[] = []
    provider.on('chainChanged', (c) => changed.push(c))
    expect(await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x16779' }] })).toBeNull()
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x16779')
    expect(changed).toEqual(['0x16779'])
  })

  it('switching to the active chain emits nothing', async () => {
    const { provider } = setup()
    const changed: unknown[] = []
    provider.on('chainChanged', (c) => changed.push(c))
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x38' }] })
    expect(changed).toEqual([])
  })

  it('a removed listener is no longer called', async () => {
    const { provider } = setup()
    const changed: unknown[] = []
    const fn = (c: unknown) => changed.push(c)
    provider.on('chainChanged', fn)
    provider.removeListener('chainChanged', fn)
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x16779' }] })
    expect(changed).toEqual([])
  })

  it('wallet_addEthereumChain accepts known chains and rejects unknown ones with 4902', async () => {
    const { provider } = setup()
    expect(await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x16779', chainName: 'NADI' }] })).toBeNull()
    const err = await rpcError(provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x89' }] }))
    expect(err.code).toBe(4902)
  })

  it('eth_signTypedData_v4 signs JSON typed data that ethers verifies, ignoring the EIP712Domain type', async () => {
    const { wallet, provider } = setup()
    const domain = { name: 'NADI', version: '1', chainId: 56 }
    const types = { Login: [{ name: 'nonce', type: 'string' }] }
    const message = { nonce: 'abc' }
    const typed = {
      domain,
      primaryType: 'Login',
      message,
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        ...types,
      },
    }
    const sig = (await provider.request({ method: 'eth_signTypedData_v4', params: [wallet.address, JSON.stringify(typed)] })) as string
    expect(verifyTypedData(domain, types, message, sig)).toBe(wallet.address)
  })

  it('eth_signTypedData_v4 without backend support fails with 4200', async () => {
    const { wallet, provider } = setup({}, { signTypedData: undefined })
    const err = await rpcError(provider.request({ method: 'eth_signTypedData_v4', params: [wallet.address, '{}'] }))
    expect(err.code).toBe(4200)
  })

  it('eth_sendTransaction without backend support fails with 4200', async () => {
    const { wallet, provider } = setup()
    const err = await rpcError(provider.request({ method: 'eth_sendTransaction', params: [{ from: wallet.address, to: OTHER }] }))
    expect(err.code).toBe(4200)
  })

  it('eth_sendTransaction goes to the backend with the active chain id', async () => {
    const seen: unknown[] = []
    const { wallet, provider } = setup({}, {
      sendTransaction: async (tx, chainId) => {
        seen.push([tx, chainId])
        return '0x' + 'ab'.repeat(32)
      },
    })
    const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: wallet.address, to: OTHER, value: '0x1' }] })
    expect(hash).toBe('0x' + 'ab'.repeat(32))
    expect(seen).toEqual([[{ from: wallet.address, to: OTHER, value: '0x1' }, 56]])
  })

  it('a backend that throws 4001 surfaces as a user rejection', async () => {
    const { wallet, provider } = setup({}, {
      signMessage: async () => {
        throw new ProviderRpcError(4001, 'User rejected the request.')
      },
    })
    const err = await rpcError(provider.request({ method: 'personal_sign', params: ['hi', wallet.address] }))
    expect(err.code).toBe(4001)
  })

  it('after wallet_revokePermissions no account is exposed until eth_requestAccounts', async () => {
    const { wallet, provider } = setup()
    const seen: unknown[] = []
    provider.on('accountsChanged', (a) => seen.push(a))
    await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    const err = await rpcError(provider.request({ method: 'personal_sign', params: ['hi', wallet.address] }))
    expect(err.code).toBe(4100)
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([wallet.address])
    expect(seen).toEqual([[], [wallet.address]])
  })
})

describe('decodePersonalMessage', () => {
  it('decodes even-length 0x-hex to bytes and leaves other strings as text', () => {
    expect(decodePersonalMessage('0xdeadbeef')).toEqual(getBytes('0xdeadbeef'))
    expect(decodePersonalMessage('0x')).toEqual(new Uint8Array())
    expect(decodePersonalMessage('0xabc')).toBe('0xabc')
    expect(decodePersonalMessage('hello')).toBe('hello')
  })
})
