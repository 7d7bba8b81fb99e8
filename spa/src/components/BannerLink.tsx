import type { ReactNode } from "react";

import { SiteLink } from "./SiteLink";

/** A banner's routerLink: a screen of the site, or an outside page in a new tab. */
export function BannerLink({ to, label, children, className }: { to: string; label: string; children: ReactNode; className?: string }) {
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
