import { envFlag, envInt, type Env } from '../settings.ts'

/** The spot market NADI/USDT (server/exchange). */
export interface TradeSettings {
  /** Fees in parts per million of what the payer receives (1000 = 0.1 %). */
  makerFeePpm: number
  takerFeePpm: number
  /** Group commit: a batch commits after at most this long, or at this many commands. */
  maxDelayMs: number
  maxBatch: number
  /** The book is snapshotted every this many commands; a start replays only the journal after the newest snapshot. */
  snapshotEvery: number
  /** NADI_TRADE_MAX_OPEN_ORDERS (200): open (resting) orders one user may have in one market. */
  maxOpenOrdersPerUser: number
  /** Demo mode: a market-making account quotes around a random walk and trades now and then. */
  demoMarket: boolean
  /** How often the demo market moves, ms. */
  demoMarketEveryMs: number
}

/** `demoDevelopment`: the demo in development, where the market maker runs unless NADI_DEMO_MARKET=0. */
export function readTradeSettings(env: Env, demoDevelopment: boolean): TradeSettings {
  return {
    makerFeePpm: envInt(env, 'NADI_TRADE_MAKER_FEE_PPM', 1000, 0, 100_000),
    takerFeePpm: envInt(env, 'NADI_TRADE_TAKER_FEE_PPM', 1000, 0, 100_000),
    maxDelayMs: envInt(env, 'NADI_TRADE_MAX_DELAY_MS', 0, 0, 50),
    maxBatch: envInt(env, 'NADI_TRADE_MAX_BATCH', 500, 1, 5000),
    snapshotEvery: envInt(env, 'NADI_TRADE_SNAPSHOT_EVERY', 10_000, 1, 10_000_000),
    maxOpenOrdersPerUser: envInt(env, 'NADI_TRADE_MAX_OPEN_ORDERS', 200, 1, 100_000),
    demoMarket: envFlag(env, 'NADI_DEMO_MARKET', demoDevelopment ? '1' : '0'),
    demoMarketEveryMs: envInt(env, 'NADI_DEMO_MARKET_EVERY_MS', 1500, 100, 600_000),
  }
}
