import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import type { Banner } from '../../../contract/common.ts'
import { bannerHint, rememberFirstBanner } from './bannerHint.ts'

const ADVANCE_MS = 4500
/** The banners' drawn size (5:2): the box is reserved before the image arrives, so nothing moves. */
const WIDTH = 750
const HEIGHT = 300

export function BannerCarousel({ banners, loading }: { banners: Banner[] | undefined; loading: boolean }) {
  const track = useRef<HTMLDivElement>(null)
  const [index, setIndex] = useState(0)
  // The other slides wait for the first image, so they do not compete with it on a slow link.
  const [firstShown, setFirstShown] = useState(false)
  const count = banners?.length ?? 0
  // Read once: the shell's tag does not change while the app runs.
  const [hint] = useState(bannerHint)

  useEffect(() => {
    if (banners) rememberFirstBanner(banners[0]?.image)
  }, [banners])

  // Follows the user's swipes: the dot shows whichever slide is in view.
  useEffect(() => {
    const el = track.current
    if (!el) return
    const onScroll = () => setIndex(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)))
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [count])

  useEffect(() => {
    if (count < 2 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    const id = setInterval(() => {
      const el = track.current
      if (!el || document.hidden) return
      const next = (Math.round(el.scrollLeft / el.clientWidth) + 1) % count
      el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' })
    }, ADVANCE_MS)
    return () => clearInterval(id)
  }, [count])

  if (loading || !banners) {
    if (!hint) return <div className="banner skeleton-banner" aria-hidden />
    // The first banner the shell preloaded, in the place and size it takes once the list is in.
    return (
      <section className="banner-wrap" aria-hidden>
        <div className="banner-track">
          <div className="banner">
            <img src={hint} alt="" width={WIDTH} height={HEIGHT} fetchPriority="high" decoding="sync" />
          </div>
        </div>
      </section>
    )
  }
  if (count === 0) return null
  return (
    <section className="banner-wrap" aria-roledescription="carousel">
      <div className="banner-track" ref={track}>
        {banners.map((b, i) => {
          const body = (
            <>
              {i === 0 || firstShown ? (
                <img
                  src={b.image}
                  alt=""
                  width={WIDTH}
                  height={HEIGHT}
                  fetchPriority={i === 0 ? 'high' : 'low'}
                  decoding={i === 0 ? 'sync' : 'async'}
                  onLoad={i === 0 ? () => setFirstShown(true) : undefined}
                  onError={i === 0 ? () => setFirstShown(true) : undefined}
                />
              ) : null}
              <span className="banner-title">{b.title}</span>
            </>
          )
          return b.link?.startsWith('/') ? (
            <Link key={b.id} href={b.link} className="banner">
              {body}
            </Link>
          ) : (
            <div key={b.id} className="banner">
              {body}
            </div>
          )
        })}
      </div>
      {count > 1 && (
        <div className="dots" aria-hidden>
          {banners.map((b, i) => (
            <span key={b.id} className={i === index ? 'dot on' : 'dot'} />
          ))}
        </div>
      )}
    </section>
  )
}
