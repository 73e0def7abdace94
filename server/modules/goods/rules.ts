// The catalog's arithmetic and texts. Pure: no I/O, tested in tests/unit/goods/rules.test.ts.
import { DEFAULT_LANG, type LangCode } from '../../../contract/constants.ts'
import { ASSET_DECIMALS, roundUpToDecimals } from '../../../contract/money.ts'

/**
 * One gold unit's price: weight × the price per gram + the craft fee, rounded up to the cent USDT is
 * shown and charged in (the platform never sells below the reference). The one price the list, the
 * detail, the confirm screen and the charge all read. Units of 1e-8 USDT; weight in mg.
 */
export function goldUnitPrice(weightMg: bigint, pricePerGram: bigint, craftFee: bigint): bigint {
  if (weightMg <= 0n || pricePerGram <= 0n || craftFee < 0n) throw new RangeError('gold price inputs out of range')
  const metal = (weightMg * pricePerGram + 999n) / 1000n
  return roundUpToDecimals(metal + craftFee, ASSET_DECIMALS.USDT)
}

/** A specification's price now: its own price, or gold priced from the reference. */
export function specUnitPrice(spec: { price: bigint | null; weight_mg: bigint | null; craft_fee: bigint | null }, goldPerGram: bigint | null): bigint {
  if (spec.price !== null) return spec.price
  if (spec.weight_mg === null || spec.craft_fee === null) throw new RangeError('a specification without a price needs weight and craft fee')
  if (goldPerGram === null) throw new RangeError('no gold price yet')
  return goldUnitPrice(spec.weight_mg, goldPerGram, spec.craft_fee)
}

/** "31.103" grams → 31103 mg. Returns null for anything else. */
export function parseGrams(text: string): bigint | null {
  const m = /^(0|[1-9][0-9]{0,6})(?:\.([0-9]{1,3}))?$/.exec(text)
  if (!m) return null
  return BigInt(m[1] as string) * 1000n + BigInt(((m[2] ?? '') + '000').slice(0, 3))
}

/** 31103n mg → "31.103". */
export function formatGrams(mg: bigint): string {
  const frac = (mg % 1000n).toString().padStart(3, '0').replace(/0+$/, '')
  return `${mg / 1000n}${frac ? `.${frac}` : ''}`
}

/** A catalog text ({"TW": …, "EN": …}) in the asked language, else the default, else any. */
export function pickText(json: string, lang: LangCode): string {
  let texts: unknown
  try {
    texts = JSON.parse(json)
  } catch {
    return ''
  }
  if (!texts || typeof texts !== 'object') return ''
  const t = texts as Record<string, unknown>
  const v = t[lang] ?? t[DEFAULT_LANG] ?? Object.values(t)[0]
  return typeof v === 'string' ? v : ''
}

/** "30" or "12.5" percent → parts per million. */
export function percentToPpm(text: string): bigint {
  const m = /^(0|[1-9][0-9]{0,2})(?:\.([0-9]{1,2}))?$/.exec(text)
  if (!m) throw new RangeError(`not a percent: ${text}`)
  return BigInt(m[1] as string) * 10_000n + BigInt(((m[2] ?? '') + '00').slice(0, 2)) * 100n
}

/** 300000n ppm → "30". */
export function ppmToPercent(ppm: bigint): string {
  const whole = ppm / 10_000n
  const frac = ((ppm % 10_000n) / 100n).toString().padStart(2, '0').replace(/0+$/, '')
  return `${whole}${frac ? `.${frac}` : ''}`
}

/** Percent change from `from` to `to`, two decimals, truncated: "-0.35". */
export function percentChange(from: bigint, to: bigint): string {
  if (from <= 0n) return '0'
  const bp = ((to - from) * 10_000n) / from
  const neg = bp < 0n
  const abs = neg ? -bp : bp
  return `${neg ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`
}


