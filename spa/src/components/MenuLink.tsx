import type { ReactNode } from "react";
import { NavLink } from "react-router";

import { useSameUrlReload } from "./SiteLink";

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

/** A menu entry: marked active on its page, and reloading it when followed there (`SiteLink`).
 * A link into a switched-off flow renders nothing. */
export function MenuLink(props: MenuLinkProps) {
  return flowOf(props.to) ? <FlowMenuLink {...props} /> : <PlainMenuLink {...props} />;
}

function FlowMenuLink(props: MenuLinkProps) {
  const allowed = useLinkAllowed();
  return allowed(props.to) ? <PlainMenuLink {...props} /> : null;
}

function PlainMenuLink({ to, children, className, testId, onNavigate, role }: MenuLinkProps) {
  const onClick = useSameUrlReload(to, onNavigate);
  return (
    <NavLink to={to} className={className} data-testid={testId} onClick={onClick} role={role}>
      {children}
    </NavLink>
  );
}
