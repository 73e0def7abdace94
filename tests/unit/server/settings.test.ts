import { describe, expect, it } from 'vitest'
import { inspect } from 'node:util'
import { Secret, envAddress, envFlag, envHttpUrl, envInt, envMoney, envString } from '../../../server/settings.ts'
import { readChainSettings, readDepositSettings } from '../../../server/chain/settings.ts'
import { readTradeSettings } from '../../../server/exchange/settings.ts'
import { readAuthSettings } from '../../../server/modules/auth/settings.ts'
import { readCarApplySettings } from '../../../server/modules/car/settings.ts'
import { readDeviceSettings } from '../../../server/modules/device/settings.ts'
import { readCommerceSettings } from '../../../server/modules/goods/settings.ts'
import { readMiningSettings } from '../../../server/modules/mining/settings.ts'
import { readNodeSettings } from '../../../server/modules/node/settings.ts'
import { readOrderSettings } from '../../../server/modules/orders/settings.ts'
import { readPaymentSettings } from '../../../server/modules/payment/settings.ts'
import { readRankingSettings } from '../../../server/modules/ranking/settings.ts'
import { readUploadSettings } from '../../../server/modules/upload/settings.ts'
import { readWalletExchangeSettings } from '../../../server/modules/wallet/settings.ts'
import { readWithdrawSettings } from '../../../server/modules/withdraw/settings.ts'

describe('shared setting parsers', () => {
  it('an integer outside its range names the variable, the range and the value', () => {
    expect(envInt({ N: ' 7 ' }, 'N', 1, 1, 10)).toBe(7)
    expect(envInt({ N: '' }, 'N', 3)).toBe(3)
    expect(() => envInt({ N: '11' }, 'N', 1, 1, 10)).toThrow('N must be an integer from 1 to 10, got "11"')
    expect(() => envInt({ N: '-1' }, 'N', 1)).toThrow('N must be an integer ≥ 0, got "-1"')
    expect(() => envInt({ N: '2.5' }, 'N', 1)).toThrow(/^N must be an integer/)
  })

  it('money takes at most 8 decimals; addresses need a valid checksum; URLs must be http(s)', () => {
    expect(envMoney({}, 'M', '1.5')).toBe(150_000_000n)
    expect(() => envMoney({ M: '1.123456789' }, 'M', '1')).toThrow('M must be a decimal amount with at most 8 decimals, got "1.123456789"')
    expect(envAddress({ A: '0x00000000000000000000000000000000000000aa' }, 'A')).toMatch(/^0x0{38}aa$/i)
    expect(envAddress({ A: ' ' }, 'A')).toBeNull()
    expect(() => envAddress({ A: '0xAbCd' }, 'A')).toThrow(/^A must be a 0x address/)
    expect(envHttpUrl({ U: 'https://rpc.example' }, 'U')).toBe('https://rpc.example')
    expect(() => envHttpUrl({ U: 'ftp://rpc.example' }, 'U')).toThrow('U must be an http(s) URL, got "ftp://rpc.example"')
    expect(() => envHttpUrl({ U: 'not a url' }, 'U')).toThrow(/^U must be an http\(s\) URL/)
  })

  it('text and switches: empty means the default, only "1" switches on', () => {
    expect(envString({ S: '' }, 'S', 'd')).toBe('d')
    expect(envFlag({}, 'F', '1')).toBe(true)
    expect(envFlag({ F: 'yes' }, 'F', '1')).toBe(false)
  })

  it('a secret never prints its value', () => {
    const s = new Secret('hunter2', 'NADI_X')
    expect(`${s}`).toBe('[redacted]')
    expect(JSON.stringify({ s })).toBe('{"s":"[redacted]"}')
    expect(inspect(s)).toBe('Secret(NADI_X)')
    expect(s.reveal()).toBe('hunter2')
  })
})

describe('each module reads its own settings, and a bad value names its variable', () => {
  it('auth: session, nonce and sign-in limits', () => {
    expect(readAuthSettings({}, 77).login.chainId).toBe(77)
    expect(() => readAuthSettings({ NADI_SESSION_MAX_AGE_MS: '5' }, 77)).toThrow(/NADI_SESSION_MAX_AGE_MS must be an integer ≥ 1000/)
    expect(() => readAuthSettings({ NADI_LOGIN_NONCE_TTL_MS: 'soon' }, 77)).toThrow(/NADI_LOGIN_NONCE_TTL_MS/)
    expect(() => readAuthSettings({ NADI_LOGIN_PER_IP: '0' }, 77)).toThrow(/NADI_LOGIN_PER_IP/)
  })

  it('chain: dev chains are refused in production, the NADI chain differs from BSC, keys must be keys', () => {
    const opts = { production: false, demoDevelopment: false }
    expect(readChainSettings({}, '/tmp', opts).devChains).toBe(false)
    expect(readChainSettings({}, '/tmp', { production: false, demoDevelopment: true }).devChains).toBe(true)
    expect(() => readChainSettings({ NADI_DEV_CHAINS: '1' }, '/tmp', { production: true, demoDevelopment: false })).toThrow(/NADI_DEV_CHAINS=1 is not allowed in production/)
    expect(() => readChainSettings({ NADI_CHAIN_ID: '56' }, '/tmp', opts)).toThrow('NADI_CHAIN_ID must differ from BSC (56)')
    expect(() => readChainSettings({ NADI_CHAIN_BSC_RPC_URL: 'ws://node' }, '/tmp', opts)).toThrow(/NADI_CHAIN_BSC_RPC_URL must be an http\(s\) URL/)
    expect(() => readChainSettings({ NADI_CHAIN_NADI_CONFIRMATIONS: '0' }, '/tmp', opts)).toThrow(/NADI_CHAIN_NADI_CONFIRMATIONS/)
    expect(() => readChainSettings({ NADI_HOT_WALLET_KEY: '0x12' }, '/tmp', opts)).toThrow('NADI_HOT_WALLET_KEY: not a 32-byte hex private key')
    expect(() => readChainSettings({ NADI_HOT_WALLET_KEY_FILE: 'missing-key-file' }, '/tmp', opts)).toThrow(/NADI_HOT_WALLET_KEY_FILE: cannot read \/tmp\/missing-key-file/)
    expect(() => readChainSettings({ NADI_DEPOSIT_XKEY: 'xpub-ish' }, '/tmp', opts)).toThrow(/NADI_DEPOSIT_XKEY must be an extended key/)
    expect(() => readChainSettings({ NADI_DEV_BLOCK_TIME: 'fast' }, '/tmp', opts)).toThrow(/NADI_DEV_BLOCK_TIME/)
    expect(readChainSettings({ NADI_DEV_BLOCK_TIME: 'manual' }, '/tmp', opts).devBlockTime).toBe('manual')
  })

  it('chain: NADI_DEV_CHAINS_URL means the dev chains of the chains process, used instead of a pair of this process’s own', () => {
    const opts = { production: false, demoDevelopment: false }
    const shared = readChainSettings({ NADI_DEV_CHAINS_URL: 'http://127.0.0.1:8070' }, '/tmp', opts)
    expect([shared.devChains, shared.devChainsUrl]).toEqual([true, 'http://127.0.0.1:8070'])
    expect(readChainSettings({ NADI_DEV_CHAINS: '1' }, '/tmp', opts).devChainsUrl).toBeNull()
    expect(() => readChainSettings({ NADI_DEV_CHAINS_URL: 'http://127.0.0.1:8070', NADI_DEV_CHAINS: '0' }, '/tmp', opts)).toThrow(
      'NADI_DEV_CHAINS=0 and NADI_DEV_CHAINS_URL contradict each other: the URL is where this process finds the dev chains',
    )
    expect(() => readChainSettings({ NADI_DEV_CHAINS_URL: 'chains:8070' }, '/tmp', opts)).toThrow(/NADI_DEV_CHAINS_URL must be an http\(s\) URL/)
    expect(() => readChainSettings({ NADI_DEV_CHAINS_URL: 'http://127.0.0.1:8070' }, '/tmp', { production: true, demoDevelopment: false })).toThrow(
      "NADI_DEV_CHAINS_URL is not allowed in production: the dev chains' keys are public",
    )
  })

  it('deposits: a pass a second on dev chains, start blocks per chain key', () => {
    const chain = readChainSettings({ NADI_DEV_CHAINS: '1' }, '/tmp', { production: false, demoDevelopment: false })
    expect(readDepositSettings({ NADI_CHAIN_NADI_DEPOSIT_START_BLOCK: '42' }, chain)).toEqual({ pollMs: 1000, reorgWindow: 12, startBlocks: { nadi: 42 } })
    expect(() => readDepositSettings({ NADI_CHAIN_BSC_DEPOSIT_START_BLOCK: '-3' }, chain)).toThrow(/NADI_CHAIN_BSC_DEPOSIT_START_BLOCK must be an integer ≥ 0/)
    expect(() => readDepositSettings({ NADI_DEPOSIT_REORG_WINDOW: '0' }, chain)).toThrow(/NADI_DEPOSIT_REORG_WINDOW/)
  })

  it('orders and holds', () => {
    expect(readOrderSettings({ NADI_HOLD_MAX_PER_ITEM: '2' }).holds.maxPerItem).toBe(2)
    expect(() => readOrderSettings({ NADI_HOLD_COOLDOWN_WINDOW_MS: '1' })).toThrow(/NADI_HOLD_COOLDOWN_WINDOW_MS must be an integer ≥ 1000, got "1"/)
    expect(() => readOrderSettings({ NADI_HOLD_MAX_PER_ITEM: '1001' })).toThrow(/NADI_HOLD_MAX_PER_ITEM must be an integer from 1 to 1000/)
  })

  it('withdraw: the failpoint is ignored in production', () => {
    expect(readWithdrawSettings({ NADI_WITHDRAW_FAILPOINT: 'crash-after-store', NADI_ENV: 'production' }).failpoint).toBeNull()
    expect(readWithdrawSettings({ NADI_WITHDRAW_FAILPOINT: 'crash-after-store' }).failpoint).toBe('crash-after-store')
    expect(() => readWithdrawSettings({ NADI_WITHDRAW_AUTO_MAX: 'many' })).toThrow(/NADI_WITHDRAW_AUTO_MAX must be a decimal amount/)
    expect(() => readWithdrawSettings({ NADI_WITHDRAW_EVERY_MS: '10' })).toThrow(/NADI_WITHDRAW_EVERY_MS/)
  })

  it('payment and the wallet exchange', () => {
    expect(readPaymentSettings({}, true).pollMs).toBe(1000)
    expect(readPaymentSettings({}, false).pollMs).toBe(5000)
    expect(() => readPaymentSettings({ NADI_PAYMENT_POLL_MS: '10' }, false)).toThrow(/NADI_PAYMENT_POLL_MS/)
    expect(() => readWalletExchangeSettings({ NADI_EXCHANGE_FEE_BPS: '10000' })).toThrow(/NADI_EXCHANGE_FEE_BPS must be an integer from 0 to 9999/)
    expect(() => readWalletExchangeSettings({ NADI_EXCHANGE_QUOTE_TTL_MS: '500' })).toThrow(/NADI_EXCHANGE_QUOTE_TTL_MS/)
  })

  it('trade: the demo market runs by default only in demo development', () => {
    expect(readTradeSettings({}, true).demoMarket).toBe(true)
    expect(readTradeSettings({}, false).demoMarket).toBe(false)
    expect(() => readTradeSettings({ NADI_TRADE_MAX_DELAY_MS: '51' }, false)).toThrow(/NADI_TRADE_MAX_DELAY_MS must be an integer from 0 to 50/)
    expect(() => readTradeSettings({ NADI_DEMO_MARKET_EVERY_MS: '10' }, false)).toThrow(/NADI_DEMO_MARKET_EVERY_MS/)
  })

  it('mining: trial power by default only in demo development', () => {
    expect(readMiningSettings({}, true).trialPower).toBe(10_000_000_000n)
    expect(readMiningSettings({}, false).trialPower).toBe(0n)
    expect(() => readMiningSettings({ NADI_TRIAL_DAYS: '366' }, false)).toThrow(/NADI_TRIAL_DAYS must be an integer from 1 to 365/)
    expect(() => readMiningSettings({ NADI_DESTROY_MIN: '-1' }, false)).toThrow(/NADI_DESTROY_MIN/)
    expect(() => readMiningSettings({ NADI_DESTROY_MULTIPLIER_PPM: '0' }, false)).toThrow(/NADI_DESTROY_MULTIPLIER_PPM/)
  })

  it('devices, nodes and car applications', () => {
    expect(() => readDeviceSettings({ NADI_DEVICE_RATE_PPM: '1000001' })).toThrow(/NADI_DEVICE_RATE_PPM/)
    expect(readNodeSettings({ NADI_DEMO_LOAN_FUND: '5' }, false).demoLoanFund).toBe(0n)
    expect(() => readNodeSettings({ NADI_DEMO_LOAN_FUND: 'five' }, true)).toThrow(/NADI_DEMO_LOAN_FUND/)
    expect(() => readCarApplySettings({ NADI_CAR_APPLY_MAX_OPEN: '0' })).toThrow(/NADI_CAR_APPLY_MAX_OPEN must be an integer from 1 to 100/)
  })

  it('commerce: the gold walks only in the demo; receipts confirm themselves after whole days', () => {
    expect(readCommerceSettings({}, true, 'development')).toMatchObject({ goldWalkMs: 10_000, autoReceiptMs: 7 * 86_400_000, demoCatalog: true })
    expect(readCommerceSettings({}, false, 'development').goldWalkMs).toBe(0)
    expect(() => readCommerceSettings({ NADI_GOLD_PRICE: '98.123456789' }, false, 'development')).toThrow(/NADI_GOLD_PRICE/)
    expect(() => readCommerceSettings({ NADI_RECEIPT_AUTO_DAYS: '0' }, false, 'development')).toThrow(/NADI_RECEIPT_AUTO_DAYS/)
  })

  it('the demo ships by itself after 30 s by default; never outside the demo, never in production; a bad delay fails start-up', () => {
    expect(readCommerceSettings({}, true, 'development').demoShipAfterMs).toBe(30_000)
    expect(readCommerceSettings({ NADI_DEMO_SHIP_AFTER_MS: '2000' }, true, 'development').demoShipAfterMs).toBe(2000)
    expect(readCommerceSettings({ NADI_DEMO_SHIP_AFTER_MS: '2000' }, false, 'development').demoShipAfterMs).toBeNull()
    expect(readCommerceSettings({ NADI_DEMO_SHIP_AFTER_MS: '2000' }, true, 'production').demoShipAfterMs).toBeNull()
    // Tests ship by hand unless they ask for the demo's shipper.
    expect(readCommerceSettings({}, true, 'test').demoShipAfterMs).toBeNull()
    expect(readCommerceSettings({ NADI_DEMO_SHIP_AFTER_MS: '0' }, true, 'test').demoShipAfterMs).toBe(0)
    for (const bad of ['-1', '1.5', 'soon', String(8 * 86_400_000)]) {
      expect(() => readCommerceSettings({ NADI_DEMO_SHIP_AFTER_MS: bad }, true, 'development')).toThrow(/NADI_DEMO_SHIP_AFTER_MS/)
    }
  })

  it('ranking: the measure is team or own, shares are checked, pools may not overpromise', () => {
    expect(readRankingSettings({ NADI_RANKING_MEASURE: 'own' }, 0n, 0n).measure).toBe('own')
    expect(() => readRankingSettings({ NADI_RANKING_MEASURE: 'all' }, 0n, 0n)).toThrow('NADI_RANKING_MEASURE must be team or own, got "all"')
    expect(() => readRankingSettings({ NADI_RANKING_TOTAL_SHARES: 'a,b' }, 0n, 0n)).toThrow(/NADI_RANKING_TOTAL_SHARES/)
    expect(() => readRankingSettings({ NADI_RANKING_DAILY_POOL_PPM: '950001' }, 0n, 0n)).toThrow(/NADI_RANKING_DAILY_POOL_PPM \(950001\) .* exceed 1000000/)
  })

  it('upload: S3 needs its bucket and both keys; the signing secret is long enough', () => {
    const u = readUploadSettings({ NADI_UPLOAD_S3_BUCKET: 'b', NADI_UPLOAD_S3_ENDPOINT: 'https://r2.example' }, '/data')
    expect(u).toMatchObject({ dir: '/data/uploads', s3: { bucket: 'b', region: 'auto', forcePathStyle: true } })
    expect(readUploadSettings({ NADI_UPLOAD_S3_BUCKET: 'b' }, '/data').s3).toMatchObject({ region: 'us-east-1', forcePathStyle: false })
    expect(() => readUploadSettings({ NADI_UPLOAD_S3_ENDPOINT: 'https://r2.example' }, '/data')).toThrow('NADI_UPLOAD_S3_ENDPOINT is set but NADI_UPLOAD_S3_BUCKET is not')
    expect(() => readUploadSettings({ NADI_UPLOAD_S3_BUCKET: 'b', NADI_UPLOAD_S3_ACCESS_KEY_ID: 'id' }, '/data')).toThrow(/NADI_UPLOAD_S3_ACCESS_KEY_ID and NADI_UPLOAD_S3_SECRET_ACCESS_KEY/)
    expect(() => readUploadSettings({ NADI_UPLOAD_SECRET: 'short' }, '/data')).toThrow('NADI_UPLOAD_SECRET must be at least 32 characters')
    expect(() => readUploadSettings({ NADI_UPLOAD_MAX_BYTES: '10' }, '/data')).toThrow(/NADI_UPLOAD_MAX_BYTES/)
  })
})
