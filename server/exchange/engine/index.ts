// The pure matching engine of the NADI/USDT market and its money arithmetic (DESIGN §8).
export * from './types.ts'
export * from './spec.ts'
export * from './settlement.ts'
export { Engine } from './engine.ts'
