import { useCallback, useEffect, useRef } from "react";

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
