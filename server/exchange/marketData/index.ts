// The market-data layer of NADI/USDT: candles, the 24 h ticker, the public book feed and recent trades,
// all derived from the engine's trades and level changes (DESIGN §5, §8). Pure; the caller owns I/O.

export { CandleBook, CANDLES_IN_MEMORY, bucketOf, toWire as candleToWire, fromWire as candleFromWire, type CandleState, type CandleChange } from './klines.ts'
export { TickerWindow, WINDOW_MINUTES, formatRatio } from './ticker.ts'
export { BookFeed, SNAPSHOT_DEPTH, bookSideOf, type BookFeedOptions } from './bookFeed.ts'
export { BookLevels, levelsChecksum, type BookSideName } from './bookLevels.ts'
export { TradeRing, RECENT_TRADES, toPublicTrade, type TradeInput } from './trades.ts'
