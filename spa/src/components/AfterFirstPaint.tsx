import { useEffect, useState, type ReactNode } from "react";

/**
 * Mounts `children` once the browser is idle after the first paint: parts of the layout that
 * start below the fold (the footer, the lobby's lower rows) stay out of the first render, which
 * keeps a slow phone's main thread free while the top of the screen renders. `fallback` holds
 * their space meanwhile, so nothing moves when they arrive.
 */
export function AfterFirstPaint({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setReady(true), 200);
    return () => clearTimeout(timer);
  }, []);
  return <>{ready ? children : fallback}</>;
}
