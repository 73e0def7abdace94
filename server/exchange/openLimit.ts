// The per-user limit of open orders in one market (as exchanges have: one user resting any number of
// orders costs every other user's book, depth and pushes). Pure: tests/unit/exchange/openLimit.test.ts.
// Checked when an order is accepted (Exchange.placeNow), never on journal replay: orders once
// journaled stay, whatever the limit is when the book is rebuilt.

/**
 * Whether a new order must be refused: a limit order when the user already has `max` open. A market
 * order never rests, so it takes no place on the book and is never refused for the limit.
 */
export function overOpenLimit(open: number, max: number, type: 'limit' | 'market'): boolean {
  return type === 'limit' && open >= max
}
