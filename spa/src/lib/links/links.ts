import { routes } from "../../api/routes";

/**
 * Every link the platform sends (the CMS's header links, banners of every kind, promotions) is
 * read here, as the browser will read it: with the WHATWG URL parser against the site's origin,
 * never as a string. The parser is what turns `/\evil.example`, `/<tab>/evil.example` and
 * `\\evil.example` into `http://evil.example/`, so the decision is made on what it gives.
 */

/** Where a platform link may lead: a screen of this site (for the router) or an allowed page. */
export type LinkDecision =
  | { kind: "site"; path: string }
  | { kind: "external"; href: string }
  | { kind: "refused"; reason: Refusal };

export type FollowedLink = Exclude<LinkDecision, { kind: "refused" }>;

export type Refusal =
  /** Nothing to follow (an entry without a link): not counted. */
  | "empty"
  /** Control, format or whitespace characters, which browsers strip or act on before parsing. */
  | "hidden-character"
  | "unparsable"
  /** `user:password@` in the address. */
  | "credentials"
  /** A scheme other than https for another host (javascript:, data:, http:, mailto:...). */
  | "scheme"
  /** An https host the skin does not list. */
  | "host"
  /** A site path a router or server reads as another host (`//host`, encoded slashes). */
  | "path-trick"
  /** A path the platform's or the gateway's routes serve, not a screen of the site. */
  | "platform-path";

export interface LinkRule {
  /** The site's origin (`window.location.origin`). */
  origin: string;
  /** The https origins the skin allows links to (`/bff/config`'s `linkHosts`). */
  allowedHosts: readonly string[];
}

// Controls (C0, DEL, C1), format characters (soft hyphen, bidi marks and overrides, zero-width
// ones, BOM) and every kind of space: browsers strip some before parsing and show none.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Z}]/u;
const ENCODED_TRICK = /%(2f|5c|[01][0-9a-f]|7f)/i;
const PLATFORM_PREFIXES = new Set(["bff", ...Object.values(routes).map((route) => route.path.split("/")[1]!.toLowerCase())]);

const refused = (reason: Refusal): LinkDecision => ({ kind: "refused", reason });

/** The decision on one link the platform sent, for a site at `rule.origin`. */
export function platformLink(raw: string | null | undefined, rule: LinkRule): LinkDecision {
  const value = (raw ?? "").replace(/^ +| +$/g, ""); // editors' stray spaces at the ends only
  if (value === "") return refused("empty");
  if (HIDDEN.test(value)) return refused("hidden-character");
  let url: URL;
  try {
    url = new URL(value, rule.origin);
  } catch {
    return refused("unparsable");
  }
  if (url.username !== "" || url.password !== "") return refused("credentials");
  const site = new URL(rule.origin);
  // A blob: URL carries its creator's origin: the scheme must be the site's too.
  if (url.origin === site.origin && url.protocol === site.protocol) return sitePath(url);
  if (url.protocol !== "https:") return refused("scheme");
  // Both origins come from the parser: hosts in punycode and lower case, default ports dropped.
  const allowed = rule.allowedHosts.some((host) => originOf(host) === url.origin);
  return allowed ? { kind: "external", href: url.href } : refused("host");
}

function sitePath(url: URL): LinkDecision {
  const { pathname } = url;
  // React Router treats a `to` starting with `//` as another host's URL.
  if (pathname.startsWith("//") || ENCODED_TRICK.test(pathname)) return refused("path-trick");
  if (PLATFORM_PREFIXES.has(pathname.split("/")[1]!.toLowerCase())) return refused("platform-path");
  return { kind: "site", path: pathname + url.search + url.hash };
}

function originOf(host: string): string | null {
  try {
    const url = new URL(host);
    return url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

const refusals = new Map<string, Refusal>();

/** Counts a refused link once per value (a banner re-rendering is not a new refusal). */
export function countRefusal(raw: string, reason: Refusal): void {
  if (reason === "empty" || refusals.has(raw)) return;
  refusals.set(raw, reason);
  if (import.meta.env.DEV) console.warn(`A link from the platform was dropped (${reason}):`, JSON.stringify(raw));
}

/** The links from the platform this page dropped, each with its reason. */
export function refusedLinks(): ReadonlyMap<string, Refusal> {
  return refusals;
}

/** For tests: forgets every counted refusal. */
export function forgetRefusals(): void {
  refusals.clear();
}
