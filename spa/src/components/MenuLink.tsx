import type { ReactNode } from "react";
import { NavLink } from "react-router";

import { ExternalLink } from "./ExternalLink";
import { useSameUrlReload } from "./SiteLink";

import { flowOf } from "../lib/access/screenAccess";
import { useLinkAllowed } from "../lib/access/useScreenAccess";
import type { FollowedLink } from "../lib/links/links";

interface MenuLinkProps {
  /** A path of the site, or where a header link from the platform leads (lib/links). */
  to: string | FollowedLink;
  children: ReactNode;
  className?: string;
  testId?: string;
  onNavigate?: () => void;
  role?: string;
}

type ScreenMenuLinkProps = Omit<MenuLinkProps, "to"> & { to: string };

/** A menu entry: marked active on its page, and reloading it when followed there (`SiteLink`);
 * a page on a host the skin allows opens in a new tab. A link into a switched-off flow renders
 * nothing. */
export function MenuLink({ to, ...props }: MenuLinkProps) {
  if (typeof to !== "string" && to.kind === "external") {
    return (
      <ExternalLink href={to.href} className={props.className} data-testid={props.testId} onClick={props.onNavigate} role={props.role}>
        {props.children}
      </ExternalLink>
    );
  }
  const path = typeof to === "string" ? to : to.path;
  return flowOf(path) ? <FlowMenuLink {...props} to={path} /> : <PlainMenuLink {...props} to={path} />;
}

function FlowMenuLink(props: ScreenMenuLinkProps) {
  const allowed = useLinkAllowed();
  return allowed(props.to) ? <PlainMenuLink {...props} /> : null;
}

function PlainMenuLink({ to, children, className, testId, onNavigate, role }: ScreenMenuLinkProps) {
  const onClick = useSameUrlReload(to, onNavigate);
  return (
    <NavLink to={to} className={className} data-testid={testId} onClick={onClick} role={role}>
      {children}
    </NavLink>
  );
}
