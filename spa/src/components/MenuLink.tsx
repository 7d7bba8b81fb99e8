import type { MouseEvent, ReactNode } from "react";
import { NavLink, useLocation } from "react-router";

import { flowOf } from "../lib/access/screenAccess";
import { useLinkAllowed } from "../lib/access/useScreenAccess";

interface MenuLinkProps {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  onNavigate?: () => void;
  role?: string;
}

/** A menu entry. Following a link to the page already shown reloads it (spec: "the router
 * reloads on navigation to the same URL"). A link into a switched-off flow renders nothing. */
export function MenuLink(props: MenuLinkProps) {
  return flowOf(props.to) ? <FlowMenuLink {...props} /> : <SameUrlReloadLink {...props} />;
}

function FlowMenuLink(props: MenuLinkProps) {
  const allowed = useLinkAllowed();
  return allowed(props.to) ? <SameUrlReloadLink {...props} /> : null;
}

function SameUrlReloadLink({ to, children, className, testId, onNavigate, role }: MenuLinkProps) {
  const location = useLocation();
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    onNavigate?.();
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    if (location.pathname + location.search === to) {
      event.preventDefault();
      window.location.reload();
    }
  }
  return (
    <NavLink to={to} className={className} data-testid={testId} onClick={onClick} role={role}>
      {children}
    </NavLink>
  );
}
