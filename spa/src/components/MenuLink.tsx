import type { ReactNode } from "react";
import { NavLink } from "react-router";

import { useSameUrlReload } from "./SiteLink";

interface MenuLinkProps {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  onNavigate?: () => void;
  role?: string;
}

/** A menu entry: marked active on its page, and reloading it when followed there (`SiteLink`). */
export function MenuLink({ to, children, className, testId, onNavigate, role }: MenuLinkProps) {
  const onClick = useSameUrlReload(to, onNavigate);
  return (
    <NavLink to={to} className={className} data-testid={testId} onClick={onClick} role={role}>
      {children}
    </NavLink>
  );
}
