import { useCallback, useEffect, useState } from "react";

/**
 * Whether something shows: from the render where `key` becomes a value until `ms` later (or
 * until dismissed), again for each new value; never while `key` is null. For a loader over a
 * new game frame, a success popup.
 */
export function useShownFor(key: string | null, ms: number): [shown: boolean, dismiss: () => void] {
  const [expired, setExpired] = useState<string | null>(null);
  if (key === null && expired !== null) setExpired(null);
  useEffect(() => {
    if (key === null) return;
    const timer = setTimeout(() => setExpired(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  const dismiss = useCallback(() => setExpired(key), [key]);
  return [key !== null && expired !== key, dismiss];
}
