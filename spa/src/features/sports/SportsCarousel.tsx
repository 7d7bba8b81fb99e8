import { memo, useCallback, useLayoutEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { Selection } from "../../api/contracts.gen";
import { useAppDispatch } from "../../lib/store/hooks";
import { openAuth } from "../../lib/store/uiSlice";
import { useLocale } from "../../i18n/useLocale";
import { Carousel } from "../../components/Carousel";
import { useSession } from "../../lib/session/useSession";
import { eventCards, eventDate, type EventCard } from "./events";
import { EVENTS_REFRESH_MS, useGetSportsEventsQuery } from "./sportsApi";

/** The combined soccer, basketball and tennis events, refreshed every 5 minutes. */
export function SportsCarousel() {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { data, isLoading } = useGetSportsEventsQuery(locale, {
    pollingInterval: EVENTS_REFRESH_MS,
    skipPollingIfUnfocused: true,
  });
  const cards = useMemo(() => eventCards(data?.events ?? []), [data]);
  const bet = useBet();
  if (isLoading) return <div className="carousel carousel--pending carousel--sports" aria-hidden="true" />;
  if (cards.length === 0) return null;
  return (
    <Carousel title={t("sports.title")} count={cards.length} testId="sports-carousel">
      {cards.map((card) => (
        <SportCard key={card.event._id} card={card} locale={locale} onBet={bet} />
      ))}
    </Carousel>
  );
}

/** Betting from a card: a visitor gets the login popup; a player the sportsbook on that selection. */
export function useBet(): (card: EventCard, selection: Selection) => void {
  const { loggedIn } = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const state = useRef({ loggedIn, dispatch, navigate });
  useLayoutEffect(() => {
    state.current = { loggedIn, dispatch, navigate };
  });
  return useCallback((card: EventCard, selection: Selection) => {
    const { loggedIn: player, dispatch: send, navigate: go } = state.current;
    if (!player) {
      send(openAuth("login"));
      return;
    }
    // The sportsbook screen opens the slip on the chosen selection (StoredBetslip's storage keys).
    localStorage.setItem("selectionsId", selection._id);
    localStorage.setItem("EventId", card.event._id);
    void go("/games/sports");
  }, []);
}

interface SportCardProps {
  card: EventCard;
  locale: string;
  onBet: (card: EventCard, selection: Selection) => void;
}

/** One event with its main market's odds (memoised: the list re-renders, the cards do not). */
export const SportCard = memo(function SportCard({ card, locale, onBet }: SportCardProps) {
  const { t } = useTranslation("lobby");
  const { event, market, selections } = card;
  const bet = (selection: Selection) => onBet(card, selection);

  return (
    <li className="sport-card" data-testid="sport-card" data-sport={event.sportName}>
      <p className="sport-card__league">
        <span>{event.leagueName}</span>
        <time dateTime={market.startDate}>{eventDate(market.startDate, locale)}</time>
      </p>
      <p className="sport-card__teams">
        <span>{market.homeTeam}</span>
        <span className="sport-card__vs">{t("sports.versus")}</span>
        <span>{market.awayTeam}</span>
      </p>
      <div className="sport-card__odds">
        {selections.map((selection) => (
          <button key={selection._id} type="button" className="odds-button" onClick={() => bet(selection)}>
            <span className="odds-button__label">{t(`sports.outcome.${selection.outcomeType as "Home" | "Tie" | "Away"}`)}</span>
            <span className="odds-button__price">{selection.displayOdds ?? selection.trueOdds.toFixed(2)}</span>
          </button>
        ))}
      </div>
    </li>
  );
});
