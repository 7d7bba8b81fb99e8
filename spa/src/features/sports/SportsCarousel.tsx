import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { Selection } from "../../api/contracts.gen";
import { useAppDispatch } from "../../app/hooks";
import { openAuth } from "../../app/uiSlice";
import { useLocale } from "../../i18n/useLocale";
import { Carousel } from "../games/Carousel";
import { useSession } from "../session/useSession";
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
  if (isLoading) return <div className="carousel carousel--pending carousel--sports" aria-hidden="true" />;
  if (cards.length === 0) return null;
  return (
    <Carousel title={t("sports.title")} count={cards.length} testId="sports-carousel">
      {cards.map((card) => (
        <SportCard key={card.event._id} card={card} />
      ))}
    </Carousel>
  );
}

export function SportCard({ card }: { card: EventCard }) {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { loggedIn } = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { event, market, selections } = card;

  function bet(selection: Selection) {
    if (!loggedIn) {
      dispatch(openAuth("login"));
      return;
    }
    // The sportsbook screen opens the slip on the chosen selection (storage keys of section 3).
    localStorage.setItem("selectionsId", selection._id);
    localStorage.setItem("EventId", event._id);
    void navigate("/games/sports");
  }

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
}
