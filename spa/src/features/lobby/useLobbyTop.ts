import { useCallback, useEffect, useState } from "react";

/** Past this, the top of the lobby counts as shown anyway: a stalled image holds nothing back. */
export const TOP_WAIT_MS = 3000;

/**
 * Whether the top of the lobby (hero and lobby banners) is on screen. The parts below wait for
 * it, so on a phone's connection their data (the sports list alone is ~30 kB) and art do not
 * compete with the banners a visitor sees first. Each banner part reports with its callback.
 */
export function useLobbyTop() {
  const [hero, setHero] = useState(false);
  const [banners, setBanners] = useState(false);
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), TOP_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  return {
    shown: late || (hero && banners),
    heroShown: useCallback(() => setHero(true), []),
    bannersShown: useCallback(() => setBanners(true), []),
  };
}
