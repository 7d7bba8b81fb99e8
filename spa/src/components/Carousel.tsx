import { useRef, useState, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Icon } from "./icons/Icon";
import { nextIndex, offsetFor, prevIndex } from "./carousel";
import { useCardsInView } from "./useCardsInView";

export const MISSING_ELEMENTS = "Carousel elements not found";

interface CarouselProps {
  title: string;
  count: number;
  children: ReactNode;
  testId?: string;
  /** Called by the right arrow before it moves (a game row expands to its full list). */
  onNext?: () => void;
  /** The number of cards once `onNext` has run, when it changes them. */
  countAfterNext?: number;
}

/**
 * A row of cards 10 px apart, 2 to 7 in view by the screen's width (`carousel.ts`): next moves
 * one card and wraps to the start at the end, prev moves back one card until the start.
 */
export function Carousel({ title, count, children, testId, onNext, countAfterNext }: CarouselProps) {
  const { t } = useTranslation("lobby");
  const viewport = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const cards = useCardsInView();

  function visible(): number | null {
    if (!viewport.current) {
      console.warn(MISSING_ELEMENTS);
      return null;
    }
    return cards;
  }

  function next() {
    const shown = visible();
    if (shown === null) return;
    onNext?.();
    setIndex((current) => nextIndex(current, countAfterNext ?? count, shown));
  }

  function prev() {
    if (visible() === null) return;
    setIndex(prevIndex);
  }

  return (
    <section className="carousel" aria-label={title} data-testid={testId} style={cardsStyle(cards)}>
      <header className="carousel__head">
        <h2 className="carousel__title">{title}</h2>
        <div className="carousel__arrows">
          <button type="button" className="icon-button" onClick={prev} disabled={index === 0} aria-label={t("carousel.previous")} data-testid="carousel-prev">
            <Icon name="arrowLeft" />
          </button>
          <button type="button" className="icon-button" onClick={next} aria-label={t("carousel.next")} data-testid="carousel-next">
            <Icon name="arrowRight" />
          </button>
        </div>
      </header>
      <div className="carousel__viewport" ref={viewport}>
        <ul className="carousel__track" style={{ transform: offsetFor(index, cards) }} data-index={index}>
          {children}
        </ul>
      </div>
    </section>
  );
}

/** The number of cards in view, for the stylesheet's card width (`--carousel-cards`). */
export function cardsStyle(cards: number): CSSProperties {
  return { "--carousel-cards": cards } as CSSProperties;
}

/** The space a game row holds while it loads: its heading and one row of cards as wide as its own will be. */
export function CarouselPlaceholder() {
  return <div className="carousel carousel--pending" aria-hidden="true" style={cardsStyle(useCardsInView())} />;
}
