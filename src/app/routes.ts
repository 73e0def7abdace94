import { createElement, lazy, type ComponentType } from 'react'
import HomeScreen from '../features/home/HomeScreen.tsx'
import { withStrings } from '../i18n/index.ts'

export interface ScreenProps {
  params: Record<string, string>
}

export interface RouteDef {
  pattern: string
  /** Fetches the screen's chunk ahead of rendering it (the first screen of a start). */
  preload?: () => Promise<unknown>
  /** SPEC §2: true needs a stored token; visitors only see the home screen. */
  auth: boolean
  screen: ComponentType<ScreenProps>
  /** Shown with the bottom tab bar. */
  tab?: boolean
}

type Load = () => Promise<{ default: ComponentType<ScreenProps> }>

/** How to fetch again each screen whose code could not be fetched (React's lazy keeps a failure for good). */
const failed = new Set<() => void>()

/** The user's retry (ScreenBoundary): screens that failed to load try their code again on their next render. */
export function retryFailedScreens(): void {
  for (const again of failed) again()
  failed.clear()
}

/**
 * A lazily loaded screen that can also be fetched ahead. Once fetched it renders at once, without
 * the suspend-and-retry a lazy component costs on its first render. A failed fetch (offline, code
 * not cached) reaches the screen's error boundary (ScreenBoundary), and stays failed until the
 * user retries: a render that fetched again by itself would loop while offline.
 */
function screen(load: Load): Pick<RouteDef, 'screen' | 'preload'> {
  let loaded: ComponentType<ScreenProps> | undefined
  // A screen renders once its code and its language's strings are both here (withStrings).
  const preload = () =>
    withStrings(load).then((m) => {
      loaded = m.default
      return m
    })
  const attempt = (): ComponentType<ScreenProps> =>
    lazy(() =>
      preload().catch((e: unknown) => {
        failed.add(() => (Lazy = attempt()))
        throw e
      }),
    )
  let Lazy = attempt()
  const Screen = (props: ScreenProps) => createElement(loaded ?? Lazy, props)
  return { screen: Screen, preload }
}

const addressForm = screen(() => import('../features/address/AddressFormScreen.tsx'))
const orderConfirm = screen(() => import('../features/preOrder/OrderConfirmScreen.tsx'))

// Home is in the first load; every other screen is its own chunk, fetched on first visit.
export const ROUTES: RouteDef[] = [
  { pattern: '/index', auth: false, screen: HomeScreen, tab: true },
  { pattern: '/open_screen', auth: false, ...screen(() => import('../features/home/OpenScreen.tsx')) },
  { pattern: '/user', auth: true, ...screen(() => import('../features/user/UserScreen.tsx')), tab: true },
  { pattern: '/notice', auth: true, ...screen(() => import('../features/notice/NoticeListScreen.tsx')), tab: true },
  { pattern: '/notice/detail/:id', auth: true, ...screen(() => import('../features/notice/NoticeDetailScreen.tsx')) },
  { pattern: '/address', auth: true, ...screen(() => import('../features/address/AddressListScreen.tsx')) },
  { pattern: '/address/add', auth: true, ...addressForm },
  { pattern: '/address/edit', auth: true, ...addressForm },
  { pattern: '/shop', auth: true, ...screen(() => import('../features/shop/ShopScreen.tsx')) },
  { pattern: '/shop/detail/:id', auth: true, ...screen(() => import('../features/shop/ShopDetailScreen.tsx')) },
  { pattern: '/shop/orderConfirm', auth: true, ...orderConfirm },
  { pattern: '/mall', auth: true, ...screen(() => import('../features/mall/MallScreen.tsx')) },
  { pattern: '/mall/detail/:id', auth: true, ...screen(() => import('../features/mall/MallDetailScreen.tsx')) },
  { pattern: '/mall/orderConfirm', auth: true, ...orderConfirm },
  { pattern: '/cars', auth: true, ...screen(() => import('../features/cars/CarsScreen.tsx')) },
  { pattern: '/wallet', auth: true, ...screen(() => import('../features/wallet/WalletScreen.tsx')), tab: true },
  { pattern: '/wallet/moneyLog', auth: true, ...screen(() => import('../features/wallet/MoneyLogScreen.tsx')) },
  { pattern: '/wallet/earnings/:day', auth: true, ...screen(() => import('../features/wallet/EarningsScreen.tsx')) },
  { pattern: '/recharge', auth: true, ...screen(() => import('../features/recharge/RechargeScreen.tsx')) },
  { pattern: '/recharge/list', auth: true, ...screen(() => import('../features/recharge/RechargeListScreen.tsx')) },
  { pattern: '/withdraw', auth: true, ...screen(() => import('../features/withdraw/WithdrawScreen.tsx')) },
  { pattern: '/withdraw/list', auth: true, ...screen(() => import('../features/withdraw/WithdrawListScreen.tsx')) },
  { pattern: '/draw', auth: true, ...screen(() => import('../features/wallet/TransferScreen.tsx')) },
  { pattern: '/draw/list', auth: true, ...screen(() => import('../features/wallet/TransferListScreen.tsx')) },
  { pattern: '/trade', auth: true, ...screen(() => import('../features/trade/TradeScreen.tsx')), tab: true },
  { pattern: '/trade/orderList', auth: true, ...screen(() => import('../features/trade/OrderListScreen.tsx')) },
  { pattern: '/trade/close', auth: true, ...screen(() => import('../features/trade/DealListScreen.tsx')) },
  { pattern: '/orders', auth: true, ...screen(() => import('../features/orders/OrdersScreen.tsx')) },
  { pattern: '/apply', auth: true, ...screen(() => import('../features/cars/ApplyScreen.tsx')) },
  { pattern: '/shop/orderList', auth: true, ...screen(() => import('../features/shopOrders/ShopOrderListScreen.tsx')) },
  { pattern: '/mall/orderList', auth: true, ...screen(() => import('../features/shopOrders/MallOrderListScreen.tsx')) },
  { pattern: '/mall/orderDetail', auth: true, ...screen(() => import('../features/shopOrders/MallOrderDetailScreen.tsx')) },
  { pattern: '/shop/orderRelease', auth: true, ...screen(() => import('../features/release/OrderReleaseScreen.tsx')) },
  { pattern: '/car/carRelease', auth: true, ...screen(() => import('../features/release/CarReleaseScreen.tsx')) },
  { pattern: '/node', auth: true, ...screen(() => import('../features/node/NodeScreen.tsx')) },
  { pattern: '/node/detail/:id', auth: true, ...screen(() => import('../features/node/NodeDetailScreen.tsx')) },
  { pattern: '/loan', auth: true, ...screen(() => import('../features/loan/LoanScreen.tsx')) },
  { pattern: '/pledge', auth: true, ...screen(() => import('../features/pledge/PledgeScreen.tsx')) },
  { pattern: '/pledge/detail/:id', auth: true, ...screen(() => import('../features/pledge/PledgeDetailScreen.tsx')) },
  { pattern: '/pledge/releaseLog/:id', auth: true, ...screen(() => import('../features/pledge/ReleaseLogScreen.tsx')) },
  { pattern: '/ming', auth: true, ...screen(() => import('../features/mining/MiningScreen.tsx')) },
  { pattern: '/ranking', auth: true, ...screen(() => import('../features/ranking/RankingScreen.tsx')) },
  { pattern: '/activity', auth: true, ...screen(() => import('../features/activity/ActivityListScreen.tsx')) },
  { pattern: '/activity/detail/:id', auth: true, ...screen(() => import('../features/activity/ActivityDetailScreen.tsx')) },
  { pattern: '/activity/rank/:id', auth: true, ...screen(() => import('../features/activity/ActivityRankScreen.tsx')) },
  { pattern: '/destoryList', auth: true, ...screen(() => import('../features/mining/DestroyListScreen.tsx')) },
  { pattern: '/mingLog', auth: true, ...screen(() => import('../features/mining/PowerLogScreen.tsx')) },
]

export interface Match {
  route: RouteDef
  params: Record<string, string>
}

export function matchRoute(path: string, routes: RouteDef[] = ROUTES): Match | null {
  const parts = path.replace(/\/+$/, '').split('/')
  for (const route of routes) {
    const want = route.pattern.split('/')
    if (want.length !== parts.length) continue
    const params: Record<string, string> = {}
    let ok = true
    for (let i = 0; i < want.length && ok; i++) {
      const w = want[i] as string
      const p = parts[i] as string
      if (w.startsWith(':')) {
        const value = p === '' ? null : safeDecode(p)
        if (value === null) ok = false
        else params[w.slice(1)] = value
      } else if (w !== p) ok = false
    }
    if (ok) return { route, params }
  }
  return null
}

/** A malformed escape (a hand-typed "%") is no route rather than a crash. */
function safeDecode(part: string): string | null {
  try {
    return decodeURIComponent(part)
  } catch {
    return null
  }
}
