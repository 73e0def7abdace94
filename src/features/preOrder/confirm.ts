// What the order confirm screen is about, carried in its address (SPEC §2 /shop/orderConfirm,
// /mall/orderConfirm): the area, product, specification and quantity — so a reload, a way back from
// adding an address, or a shared link shows the same order. Cars are confirmed on the same screen as
// devices, with `area=car` (they ship nowhere, so only the address part differs). Pure.
import type { Address } from '../../../contract/address.ts'
import type { Area } from '../../../contract/goods.ts'
import type { PreOrderBody } from '../../../contract/preOrder.ts'
import { checkText, textLength, trimText } from '../../../contract/addressRules.ts'
import { QUANTITY_MAX } from '../goods/price.ts'

/** contract/preOrder.ts's REMARK_MAX (that file builds schemas, so it is not imported by value; a unit test keeps them equal). */
export const REMARK_MAX = 200

export const CONFIRM_PATH: Record<Area, string> = { machine: '/shop/orderConfirm', gold: '/mall/orderConfirm', car: '/shop/orderConfirm' }

/** Where an area's paid orders are listed: the screen a paid order lands on. */
export const ORDER_LIST_PATH: Record<Area, string> = { machine: '/shop/orderList', gold: '/mall/orderList', car: '/car/carRelease' }

/** Where an area's products are shown. */
export const DETAIL_PATH: Record<Area, (id: number) => string> = {
  machine: (id) => `/shop/detail/${id}`,
  gold: (id) => `/mall/detail/${id}`,
  car: () => '/cars',
}

export interface ConfirmTarget {
  area: Area
  goodsId: number
  specId: number
  quantity: number
}

/** The confirm screen's address for one intended order. */
export function confirmHref({ area, goodsId, specId, quantity }: ConfirmTarget): string {
  const q = new URLSearchParams()
  if (area === 'car') q.set('area', 'car')
  q.set('goods', String(goodsId))
  q.set('spec', String(specId))
  q.set('qty', String(quantity))
  return `${CONFIRM_PATH[area]}?${q.toString()}`
}

const id = (v: string | null): number | null => (v !== null && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : null)

/** Reads the confirm screen's address; null when it names no complete order (a hand-edited link). */
export function parseConfirm(path: string, search: string): ConfirmTarget | null {
  const q = new URLSearchParams(search)
  const area: Area | null = path === '/mall/orderConfirm' ? 'gold' : path === '/shop/orderConfirm' ? (q.get('area') === 'car' ? 'car' : 'machine') : null
  const goodsId = id(q.get('goods'))
  const specId = id(q.get('spec'))
  const quantity = id(q.get('qty') ?? '1')
  if (!area || goodsId === null || specId === null || quantity === null || quantity > QUANTITY_MAX) return null
  return { area, goodsId, specId, quantity }
}

/** The remark's problem as a locale key, or null: optional, one line, at most REMARK_MAX characters. */
export function remarkProblem(remark: string): { key: string; params?: Record<string, string> } | null {
  const p = checkText(remark, REMARK_MAX)
  if (p === null || p === 'required') return null
  return p === 'tooLong' ? { key: 'preOrder.remarkTooLong', params: { max: String(REMARK_MAX) } } : { key: 'preOrder.remarkInvalid' }
}

/** A link back to this screen that survives a round trip through the address form. */
export function addAddressHref(back: string): string {
  return `/address/add?back=${encodeURIComponent(back)}`
}

/** Characters of the remark as counted against REMARK_MAX. */
export const remarkLength = (remark: string): number => textLength(trimText(remark))

/**
 * The address the order goes to: the one chosen if it still exists, else the default — the server's
 * (address/getDefaultAddress), which shows before the list has loaded, then the list's — else the first.
 */
export function pickAddress(addresses: readonly Address[] | undefined, chosenId: number | undefined, defaultAddress?: Address | null): Address | undefined {
  if (!addresses) return defaultAddress ?? undefined
  return addresses.find((a) => a.id === chosenId) ?? addresses.find((a) => a.id === defaultAddress?.id) ?? addresses.find((a) => a.is_default) ?? addresses[0]
}

/**
 * The body of POST preOrder/preOrder: the address only for what ships, the remark only when there is
 * one, and the total the screen showed, which the server charges exactly or refuses.
 */
export function orderBody(target: ConfirmTarget, opts: { ships: boolean; addressId: number | undefined; remark: string; shownTotal: string }): PreOrderBody {
  const remark = trimText(opts.remark)
  return {
    area: target.area,
    goods_id: target.goodsId,
    spec_id: target.specId,
    quantity: target.quantity,
    ...(opts.ships && opts.addressId !== undefined ? { address_id: opts.addressId } : {}),
    ...(remark ? { remark } : {}),
    expected_total: opts.shownTotal,
  }
}
