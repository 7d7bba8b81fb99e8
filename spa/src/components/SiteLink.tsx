import type { MouseEvent, ReactNode } from "react";
import { Link, useLocation } from "react-router";

import { flowOf } from "../lib/access/screenAccess";
import { useLinkAllowed } from "../lib/access/useScreenAccess";

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

/** An internal link (quick icons, footer, banners) that reloads the page it is already on; a link
 * into a switched-off flow (deposits, withdrawals) renders nothing, as the menus' do. */
export function SiteLink(props: SiteLinkProps) {
  return flowOf(props.to) ? <FlowSiteLink {...props} /> : <PlainSiteLink {...props} />;
}

function FlowSiteLink(props: SiteLinkProps) {
  const allowed = useLinkAllowed();
  return allowed(props.to) ? <PlainSiteLink {...props} /> : null;
}

function PlainSiteLink({ to, children, className, testId, ariaLabel, onNavigate }: SiteLinkProps) {
  const onClick = useSameUrlReload(to, onNavigate);
  return (
    <Link to={to} className={className} data-testid={testId} aria-label={ariaLabel} onClick={onClick}>
      {children}
    </Link>
  );
}
