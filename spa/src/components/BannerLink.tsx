import type { ReactNode } from "react";

import { SiteLink } from "./SiteLink";

import { flowOf } from "../lib/access/screenAccess";
import { useLinkAllowed } from "../lib/access/useScreenAccess";

interface BannerLinkProps {
  to: string;
  label: string;
  children: ReactNode;
  className?: string;
}

/** A banner's routerLink: a screen of the site, or an outside page in a new tab. A banner leading
 * into a switched-off flow (lib/access) shows without its link. */
export function BannerLink(props: BannerLinkProps) {
  return flowOf(props.to) ? <FlowBannerLink {...props} /> : <AnyBannerLink {...props} />;
}

function FlowBannerLink(props: BannerLinkProps) {
  const allowed = useLinkAllowed();
  if (allowed(props.to)) return <AnyBannerLink {...props} />;
  return <span className={props.className}>{props.children}</span>;
}

function AnyBannerLink({ to, label, children, className }: BannerLinkProps) {
  if (/^https?:\/\//.test(to)) {
    return (
      <a href={to} className={className} aria-label={label} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  return (
    <SiteLink to={to || "/home"} className={className} ariaLabel={label}>
      {children}
    </SiteLink>
  );
}
