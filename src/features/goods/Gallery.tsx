import { useEffect, useRef, useState } from 'react'
import { useT } from '../../i18n/index.ts'

/** A product's pictures, swiped one at a time, with dots saying which is shown. */
export function Gallery({ images, name }: { images: string[]; name: string }) {
  const t = useT()
  const track = useRef<HTMLDivElement>(null)
  const [index, setIndex] = useState(0)
  useEffect(() => {
    const el = track.current
    if (!el) return
    const onScroll = () => setIndex(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)))
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => el.removeEventListener('scroll', onScroll)
  }, [images.length])
  return (
    <section className="gallery" aria-roledescription="carousel" aria-label={t('goods.pictures')}>
      <div className="gallery-track" ref={track}>
        {images.map((src, i) => (
          <img key={src + i} src={src} alt={i === 0 ? name : ''} width={600} height={600} loading={i === 0 ? 'eager' : 'lazy'} decoding="async" />
        ))}
      </div>
      {images.length > 1 && (
        <div className="dots" aria-hidden>
          {images.map((src, i) => (
            <span key={src + i} className={i === index ? 'dot on' : 'dot'} />
          ))}
        </div>
      )}
    </section>
  )
}
