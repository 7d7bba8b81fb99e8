import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

import type { EventCard } from "./events";
import { usePriceBetslipMutation } from "./sportsApi";

/** The browser storage keys a carousel bet leaves for the sportsbook. */
export const STORED_SELECTION = "selectionsId";
export const STORED_EVENT = "EventId";

/**
 * The selection a carousel bet left in storage, put on the betslip: read once when the
 * events are in, cleared at once (a reload does not add it again), priced by the sportsbook.
 */
export function StoredBetslip({ cards, ready }: { cards: readonly EventCard[]; ready: boolean }) {
  const { t } = useTranslation("lobby");
  const [price, { data, isError }] = usePriceBetslipMutation();
  const read = useRef(false);
  useEffect(() => {
    if (!ready || read.current) return;
    read.current = true;
    const selectionId = localStorage.getItem(STORED_SELECTION);
    const eventId = localStorage.getItem(STORED_EVENT);
    localStorage.removeItem(STORED_SELECTION);
    localStorage.removeItem(STORED_EVENT);
    if (!selectionId || !eventId) return;
    const selection = cards.find((card) => card.event._id === eventId)?.selections.find((s) => s._id === selectionId);
    // The sportsbook prices the slip again; the listed odds are what the player chose.
    void price({ selections: [{ eventId, selectionId, odds: selection?.trueOdds ?? 0 }] });
  }, [ready, cards, price]);

  if (isError || (data && !data.success)) {
    return (
      <p className="field__error" role="alert" data-testid="betslip-error">
        {data?.description || t("sports.betslipError")}
      </p>
    );
  }
  if (!data) return null;
  return (
    <section className="betslip" aria-label={t("sports.betslip")} data-testid="betslip">
      <h2>{t("sports.betslip")}</h2>
      <ul>
        {(data.selections ?? []).map((picked) => {
          const card = cards.find((c) => c.event._id === picked.eventId);
          const selection = card?.selections.find((s) => s._id === picked.selectionId);
          return (
            <li key={picked.selectionId} data-testid="betslip-selection">
              {card ? `${card.market.homeTeam} ${t("sports.versus")} ${card.market.awayTeam}` : picked.eventId}
              {selection && ` · ${t(`sports.outcome.${selection.outcomeType as "Home" | "Tie" | "Away"}`)}`} · {picked.odds.toFixed(2)}
            </li>
          );
        })}
      </ul>
      <p data-testid="betslip-total">{t("sports.totalOdds", { odds: (data.totalOdds ?? 1).toFixed(2) })}</p>
    </section>
  );
}
