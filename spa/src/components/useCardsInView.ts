import { useSyncExternalStore } from "react";

import { cardsInView } from "./carousel";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("resize", onChange);
  return () => window.removeEventListener("resize", onChange);
}

/** The cards a carousel shows at the window's width now (the spec's breakpoints), kept current on resize. */
export function useCardsInView(): number {
  return useSyncExternalStore(subscribe, () => cardsInView(window.innerWidth));
}
