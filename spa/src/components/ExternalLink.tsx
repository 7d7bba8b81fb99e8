import type { AnchorHTMLAttributes } from "react";

/** A page of another site, in a new tab that gets neither this page as its opener nor its address. */
export function ExternalLink(props: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "target" | "rel">) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}
