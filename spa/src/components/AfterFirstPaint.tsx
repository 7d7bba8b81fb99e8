import { useEffect, useState, type ReactNode } from "react";

interface AfterFirstPaintProps {
  children: ReactNode;
  fallback?: ReactNode;
  waitFor?: boolean;
}

/**
 * Mounts `children` once the browser is idle after the first paint: parts of the layout that
 * start below the fold (the footer, the lobby's lower rows) stay out of the first render, which
 * keeps a slow phone's main thread free while the top of the screen renders. With `waitFor`,
 * only once it is true (the lobby's rows wait for the banners above them). `fallback` holds
 * their space meanwhile, so nothing moves when they arrive.
 */
export function AfterFirstPaint({ children, fallback = null, waitFor = true }: AfterFirstPaintProps) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!waitFor) return;
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setReady(true), 200);
    return () => clearTimeout(timer);
  }, [waitFor]);
  return <>{ready ? children : fallback}</>;
}
