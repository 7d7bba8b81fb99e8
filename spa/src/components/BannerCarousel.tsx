import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import type { Media } from "../api/contracts.gen";
import { Icon } from "./icons/Icon";
import { PlatformLink } from "./PlatformLink";
import { useImagesShown } from "./useImagesShown";

/** Hero banners rotate every 7 s unless the visitor prefers reduced motion or is pointing at them. */
export const HERO_ROTATE_MS = 7000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** One slide: its art (with its intrinsic size, so nothing shifts as it loads) and its link. */
export interface Slide {
  id: number;
  url: string;
  alt: string;
  width: number;
  height: number;
  link: string;
}

/** A CMS banner as a slide; wide banners are 1600x500 unless the CMS says otherwise. */
export function slide(id: number, media: Media, link: string): Slide {
  return { id, url: media.url, alt: media.alternativeText ?? "", width: media.width ?? 1600, height: media.height ?? 500, link };
}

interface BannerCarouselProps {
  banners: readonly Slide[];
  loading: boolean;
  label: string;
  testId: string;
  /** Called once the first slide's art has loaded or failed (at once when there is none). */
  onShown?: () => void;
}

/** Wide banners one at a time, with arrows and dots (home heroes, poker and event banners). */
export function BannerCarousel({ banners, loading, label, testId, onShown }: BannerCarouselProps) {
  const { t } = useTranslation("lobby");
  const [current, setCurrent] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = banners.length;
  // Only the first slide loads at once; the others are lazy.
  const firstImageSettled = useImagesShown(loading ? undefined : Math.min(count, 1), onShown);

  useEffect(() => {
    if (count < 2 || paused || prefersReducedMotion()) return;
    const timer = setInterval(() => setCurrent((n) => (n + 1) % count), HERO_ROTATE_MS);
    return () => clearInterval(timer);
  }, [count, paused]);

  if (!loading && count === 0) return null;
  return (
    <section
      className="hero"
      aria-roledescription="carousel"
      aria-label={label}
      data-testid={testId}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="hero__track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {banners.map((banner, n) => (
          <div
            key={banner.id}
            className="hero__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={t("hero.slide", { n: n + 1, count })}
            aria-hidden={n !== current}
            inert={n !== current}
          >
            <PlatformLink to={banner.link} label={banner.alt || label}>
              <img
                src={banner.url}
                alt={banner.alt}
                width={banner.width}
                height={banner.height}
                loading={n === 0 ? "eager" : "lazy"}
                fetchPriority={n === 0 ? "high" : "auto"}
                decoding={n === 0 ? "sync" : "async"}
                onLoad={n === 0 ? firstImageSettled : undefined}
                onError={n === 0 ? firstImageSettled : undefined}
              />
            </PlatformLink>
          </div>
        ))}
      </div>
      {count > 1 && (
        <>
          <button type="button" className="hero__arrow hero__arrow--prev icon-button" onClick={() => setCurrent((current - 1 + count) % count)} aria-label={t("carousel.previous")}>
            <Icon name="arrowLeft" />
          </button>
          <button type="button" className="hero__arrow hero__arrow--next icon-button" onClick={() => setCurrent((current + 1) % count)} aria-label={t("carousel.next")}>
            <Icon name="arrowRight" />
          </button>
          <div className="hero__dots">
            {banners.map((banner, n) => (
              <button
                key={banner.id}
                type="button"
                className="hero__dot"
                aria-label={t("hero.slide", { n: n + 1, count })}
                aria-current={n === current}
                onClick={() => setCurrent(n)}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
