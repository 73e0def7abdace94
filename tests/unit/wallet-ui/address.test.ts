import { describe, expect, it } from 'vitest'
import { getAddress, keccak256 as ethersKeccak, Wallet } from 'ethers'
import { keccak256, toHex } from '../../../src/features/withdraw/keccak.ts'
import { checkAddress, toChecksumAddress } from '../../../src/features/withdraw/validation.ts'

const bytes = (s: string) => new TextEncoder().encode(s)

describe('keccak-256', () => {
  it('matches the published digests', () => {
    expect(toHex(keccak256(bytes('')))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(toHex(keccak256(bytes('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
  })

  it('matches ethers on inputs that span several 136-byte blocks', () => {
    for (const n of [1, 135, 136, 137, 271, 272, 500]) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255)
      expect(`0x${toHex(keccak256(b))}`, `${n} bytes`).toBe(ethersKeccak(b))
    }
  })
})

describe('withdrawal address check (EIP-55)', () => {
  // The test vectors of EIP-55 itself.
  const VECTORS = ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']

  it('checksums addresses as EIP-55 does', () => {
    for (const a of VECTORS) expect(toChecksumAddress(a.toLowerCase())).toBe(a)
  })

  it('agrees with ethers on random addresses', () => {
    for (let i = 0; i < 25; i++) {
      const a = Wallet.createRandom().address
      expect(toChecksumAddress(a.toLowerCase())).toBe(getAddress(a.toLowerCase()))
    }
  })

  it('a correctly checksummed address is accepted', () => {
    for (const a of VECTORS) expect(checkAddress(a)).toBeNull()
  })

  it('an all-lower or all-upper address carries no checksum and is accepted', () => {
    expect(checkAddress(VECTORS[0]!.toLowerCase())).toBeNull()
    expect(checkAddress(`0x${VECTORS[0]!.slice(2).toUpperCase()}`)).toBeNull()
  })

  it('a mixed-case address with one letter in the wrong case fails its checksum', () => {
    const a = VECTORS[0]!
    const i = a.indexOf('a', 2)
    const typo = a.slice(0, i) + 'A' + a.slice(i + 1)
    expect(checkAddress(typo)).toEqual({ key: 'withdraw.addressChecksum' })
  })

  it('an empty address is asked for; a malformed one is refused', () => {
    expect(checkAddress('')).toEqual({ key: 'withdraw.addressRequired' })
    expect(checkAddress('  ')).toEqual({ key: 'withdraw.addressRequired' })
    for (const bad of ['0x123', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd', '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'vitalik.eth']) {
      expect(checkAddress(bad), bad).toEqual({ key: 'withdraw.addressInvalid' })
    }
  })

  it('the zero address is refused: funds sent there are burned', () => {
    expect(checkAddress(`0x${'0'.repeat(40)}`)).toEqual({ key: 'withdraw.addressInvalid' })
  })
})
