import { useEffect, useState, useSyncExternalStore } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../components/icons';
import { BANNER_INTERVAL_MS } from './bannerTiming';
import { BANNERS } from './banners';

export { BANNER_INTERVAL_MS };

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotionQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : null);

/**
 * The borrower's reduced-motion setting, followed as it changes. False when the page is prerendered
 * at build time (issue 20: no window there) and while the browser hydrates that markup (the
 * dashboard's frame), then the browser's own answer.
 */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    onReducedMotionChange,
    () => reducedMotionQuery()?.matches ?? false,
    () => false,
  );
}

function onReducedMotionChange(changed: () => void): () => void {
  const query = reducedMotionQuery();
  if (typeof query?.addEventListener !== 'function') return () => undefined;
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

/** Loops through the banners on its own; pauses while pointed at or focused, on the pause button, and never moves for reduced motion. */
export function BannerCarousel() {
  const [current, setCurrent] = useState(0);
  const [paused, setPaused] = useState(false);
  // The borrower's own choice (WCAG 2.2.2: moving content can be paused), apart from the pause while pointed at.
  const [stopped, setStopped] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const count = BANNERS.length;

  useEffect(() => {
    if (paused || stopped || reducedMotion) return;
    const timer = setInterval(() => setCurrent((index) => (index + 1) % count), BANNER_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, stopped, reducedMotion, count]);

  const show = (index: number) => setCurrent((index + count) % count);

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Highlights"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false);
      }}
    >
      <div className="carousel__track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {BANNERS.map((banner, index) => (
          <div key={banner.title} className={`carousel__slide carousel__slide--${index + 1}`} role="group" aria-roledescription="slide" aria-label={`${index + 1} of ${count}`} aria-hidden={index !== current}>
            <div className="carousel__copy">
              <h2 className="carousel__title">{banner.title}</h2>
              <p className="carousel__text">{banner.text}</p>
            </div>
            <div className="carousel__art">{banner.art}</div>
          </div>
        ))}
      </div>
      <div className="carousel__controls">
        <button type="button" className="carousel__arrow" aria-label="Previous banner" onClick={() => show(current - 1)}>
          <ChevronLeftIcon size={20} />
        </button>
        <div className="carousel__dots">
          {BANNERS.map((banner, index) => (
            <button key={banner.title} type="button" className="carousel__dot" aria-label={`Show banner ${index + 1}: ${banner.title}`} aria-current={index === current} onClick={() => show(index)} />
          ))}
        </div>
        <button type="button" className="carousel__arrow" aria-label="Next banner" onClick={() => show(current + 1)}>
          <ChevronRightIcon size={20} />
        </button>
        {!reducedMotion && (
          <button type="button" className="carousel__arrow carousel__pause" aria-label={stopped ? 'Play banners' : 'Pause banners'} onClick={() => setStopped((value) => !value)}>
            <span aria-hidden="true">{stopped ? '▶' : '❚❚'}</span>
          </button>
        )}
      </div>
    </section>
  );
}
