import type { ReactNode } from "react";
import { Link } from "react-router";

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
    <Link to={to || "/home"} className={className} aria-label={label}>
      {children}
    </Link>
  );
}
