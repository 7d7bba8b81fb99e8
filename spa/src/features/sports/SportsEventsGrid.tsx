import { useMemo } from "react";
import { useTranslation } from "react-i18next";

import { useLocale } from "../../i18n/useLocale";
import { eventCards } from "./events";
import { SportCard, useBet } from "./SportsCarousel";
import { StoredBetslip } from "./StoredBetslip";
import { EVENTS_REFRESH_MS, useGetSportsEventsQuery } from "./sportsApi";

/** Every upcoming event with its main market, as a grid (the sports screen). */
export function SportsEventsGrid() {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { data, isLoading, isFetching } = useGetSportsEventsQuery(locale, { pollingInterval: EVENTS_REFRESH_MS, skipPollingIfUnfocused: true });
  const cards = useMemo(() => eventCards(data?.events ?? []), [data]);
  const bet = useBet();
  const betslip = <StoredBetslip cards={cards} ready={!isFetching} />;
  if (isLoading) return betslip;
  return (
    <section aria-label={t("sports.title")}>
      {betslip}
      <ul className="tiles" data-testid="sports-events">
        {cards.map((card) => (
          <SportCard key={card.event._id} card={card} locale={locale} onBet={bet} />
        ))}
      </ul>
    </section>
  );
}
