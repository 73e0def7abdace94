import { queryOptions } from '@tanstack/react-query'
import type { Banner, MainInfo, PublicConfig } from '../../../contract/common.ts'
import type { LangCode } from '../../../contract/constants.ts'
import { get } from '../../api/client.ts'

/** How long data counts as fresh, named once per kind of data. */
export const STALE = { config: 10 * 60_000, banners: 5 * 60_000, mainInfo: 30_000 } as const

export const commonQueries = {
  config: () => queryOptions({ queryKey: ['common', 'config'], queryFn: ({ signal }) => get<PublicConfig>('common/config', {}, signal), staleTime: STALE.config }),
  banners: (lang: LangCode) =>
    queryOptions({ queryKey: ['common', 'banners', lang], queryFn: ({ signal }) => get<Banner[]>('common/bannerList', {}, signal), staleTime: STALE.banners }),
  mainInfo: () => queryOptions({ queryKey: ['common', 'mainInfo'], queryFn: ({ signal }) => get<MainInfo>('common/mainInfo', {}, signal), staleTime: STALE.mainInfo }),
}
