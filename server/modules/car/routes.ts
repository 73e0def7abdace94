import type { App } from '../../http/types.ts'
import { shopRoutes, type ShopDeps } from '../goods/routes.ts'

/** The car shop (SPEC §7 car/…; screens /cars, /car/carRelease). Cars do not ship: a paid car order releases its value. */
export function carRoutes(app: App, deps: ShopDeps): void {
  shopRoutes(app, 'car', deps, { orders: false })
}
