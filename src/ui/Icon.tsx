// Inline SVG icons: a few paths, no icon font or sprite request on the first load.
const PATHS = {
  home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  bell: 'M12 3a6 6 0 0 0-6 6v3.5L4.5 15v1h15v-1L18 12.5V9a6 6 0 0 0-6-6Zm-2 15a2 2 0 0 0 4 0',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-8 8.5c0-3.6 3.6-6 8-6s8 2.4 8 6',
  close: 'M6 6l12 12M18 6 6 18',
  back: 'M15 5l-7 7 7 7',
  globe: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-9 9h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3Z',
  copy: 'M9 9h10v11H9zM5 15V4h10',
  chevron: 'M9 5l7 7-7 7',
  wallet: 'M3 7h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zm0 0 12-3v3m1 7h2',
  warning: 'M12 3 2 20h20zM12 10v4m0 3v.5',
  speaker: 'M4 10v4h3l5 4V6L7 10zm12-1.5a4 4 0 0 1 0 7',
  team: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9c0-3 2.7-5 6-5s6 2 6 5m1-9a3 3 0 1 0 0-6m2 15h3c0-2.6-1.7-4.4-4-4.9',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  pin: 'M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21Zm0-9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  deposit: 'M12 4v11m-5-5 5 5 5-5M5 20h14',
  withdraw: 'M12 16V5m-5 5 5-5 5 5M5 20h14',
  transfer: 'M4 8h15l-4-4M20 16H5l4 4',
  exchange: 'M19.5 9A8 8 0 0 0 5 7.5M5 3.5v4h4M4.5 15A8 8 0 0 0 19 16.5m0 4v-4h-4',
  list: 'M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01',
  swap: 'M8 4v16m0 0-4-4m4 4 4-4M16 20V4m0 0-4 4m4-4 4 4',
  trade: 'M7 3v3m0 11v4M5 6h4v11H5zM17 3v5m0 8v5m-2-13h4v8h-4z',
  phone: 'M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm3 15h2',
  gold: 'M3 20h8l-1.2-4.5H4.2zM13 20h8l-1.2-4.5h-5.6zM8 13.5h8L14.8 9H9.2zM12 3.5V6M8.5 4.5l1 1.5M15.5 4.5l-1 1.5',
  car: 'M4 16v-4l2-5h12l2 5v4zM4 16v2h3v-2m10 0v2h3v-2M4 12h16M7.5 14h.01M16.5 14h.01',
  receipt: 'M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6m-6 4h6',
  trophy: 'M8 4h8v5a4 4 0 0 1-8 0zM8 6H4.5a3.5 3.5 0 0 0 3.8 4M16 6h3.5a3.5 3.5 0 0 1-3.8 4M12 13v4m-4 3h8m-6-3h4',
  power: 'M13 2 4 14h7l-1 8 9-12h-7z',
  savings: 'M4 10h16v10H4zM7 10V7a5 5 0 0 1 10 0v3M12 14v2',
  flag: 'M5 21V4m0 0h12l-2.5 4 2.5 4H5',
  node: 'M12 2.5 20.5 7v10L12 21.5 3.5 17V7zM12 12l8.5-5M12 12 3.5 7M12 12v9.5',
} as const

export type IconName = keyof typeof PATHS

export function Icon({ name, size = 22 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d={PATHS[name]} />
    </svg>
  )
}
