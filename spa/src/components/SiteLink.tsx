import type { MouseEvent, ReactNode } from "react";
import { Link, useLocation } from "react-router";

/** Following a link to the page already shown reloads it (spec: "the router reloads on
 * navigation to the same URL"): the click handler every internal link of the site shares. */
export function useSameUrlReload(to: string, onNavigate?: () => void) {
  const location = useLocation();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    onNavigate?.();
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    if (location.pathname + location.search + location.hash === to) {
      event.preventDefault();
      window.location.reload();
    }
  };
}

interface SiteLinkProps {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  ariaLabel?: string;
  onNavigate?: () => void;
}

/** An internal link (quick icons, footer, banners) that reloads the page it is already on. */
export function SiteLink({ to, children, className, testId, ariaLabel, onNavigate }: SiteLinkProps) {
  const onClick = useSameUrlReload(to, onNavigate);
  return (
    <Link to={to} className={className} data-testid={testId} aria-label={ariaLabel} onClick={onClick}>
      {children}
    </Link>
  );
}
