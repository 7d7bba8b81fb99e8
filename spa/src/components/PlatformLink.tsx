import type { ReactNode } from "react";

import { ExternalLink } from "./ExternalLink";
import { SiteLink } from "./SiteLink";

import { flowOf } from "../lib/access/screenAccess";
import { useLinkAllowed } from "../lib/access/useScreenAccess";
import { usePlatformLink } from "../lib/links/usePlatformLink";

interface PlatformLinkProps {
  /** The link as the platform sent it (a banner's `routerLink`). */
  to: string;
  label: string;
  children: ReactNode;
  className?: string;
}

/** Content the platform links somewhere (banners, promotions): a screen of the site, or a page
 * on a host the skin allows, in a new tab (lib/links). A refused link, a link into a switched-off
 * flow (lib/access), and any link while the skin is not known yet show the content unlinked. */
export function PlatformLink({ to, label, children, className }: PlatformLinkProps) {
  const decision = usePlatformLink()(to);
  switch (decision?.kind) {
    case "external":
      return (
        <ExternalLink href={decision.href} className={className} aria-label={label}>
          {children}
        </ExternalLink>
      );
    case "site": {
      const screen = { path: decision.path, label, children, className };
      return flowOf(decision.path) ? <FlowScreenLink {...screen} /> : <ScreenLink {...screen} />;
    }
    default:
      return <span className={className}>{children}</span>;
  }
}

interface ScreenLinkProps {
  path: string;
  label: string;
  children: ReactNode;
  className?: string;
}

function FlowScreenLink(props: ScreenLinkProps) {
  const allowed = useLinkAllowed();
  return allowed(props.path) ? <ScreenLink {...props} /> : <span className={props.className}>{props.children}</span>;
}

function ScreenLink({ path, label, children, className }: ScreenLinkProps) {
  return (
    <SiteLink to={path} className={className} ariaLabel={label}>
      {children}
    </SiteLink>
  );
}
