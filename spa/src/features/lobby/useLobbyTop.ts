import { useCallback, useEffect, useRef, useState } from "react";

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

/**
 * Calls `onShown` once a part's `images` have all loaded or failed, at once when it has none;
 * `images` is undefined while the part's data is loading. Returns the images' `onLoad` and
 * `onError` handler.
 */
export function useImagesShown(images: number | undefined, onShown: (() => void) | undefined): () => void {
  const settled = useRef(0);
  useEffect(() => {
    if (images === 0) onShown?.();
  }, [images, onShown]);
  return useCallback(() => {
    settled.current += 1;
    if (images !== undefined && settled.current >= images) onShown?.();
  }, [images, onShown]);
}
