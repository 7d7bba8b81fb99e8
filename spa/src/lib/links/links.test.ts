import { afterEach, describe, expect, it } from "vitest";

import { HEADER_LINKS } from "../../components/menu";
import { countRefusal, forgetRefusals, platformLink, refusedLinks, type LinkDecision, type Refusal } from "./links";

const rule = {
  origin: "https://aurora.example",
  allowedHosts: ["https://sports.example", "https://games.example/", "https://xn--bcher-kva.example", "http://plain.example"],
};
const decide = (raw: string) => platformLink(raw, rule);
const site = (path: string): LinkDecision => ({ kind: "site", path });
const external = (href: string): LinkDecision => ({ kind: "external", href });
const refused = (reason: Refusal): LinkDecision => ({ kind: "refused", reason });

/** Each value a CMS editor, or someone who got into the CMS, might type, and what becomes of it. */
const HOSTILE: [string, LinkDecision][] = [
  // Schemes that run or show something else, in every spelling.
  ["javascript:alert(1)", refused("scheme")],
  ["JAVASCRIPT:alert(1)", refused("scheme")],
  ["JaVaScRiPt:alert(document.domain)", refused("scheme")],
  [" javascript:alert(1) ", refused("scheme")],
  ["javascript://%0aalert(1)", refused("scheme")],
  ["data:text/html,<script>alert(1)</script>", refused("scheme")],
  ["DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", refused("scheme")],
  ["vbscript:msgbox(1)", refused("scheme")],
  ["blob:https://aurora.example/0b6f4d1e-5a2c-4d3a-9c1e-2f1a7b9d8e00", refused("scheme")],
  ["file:///etc/passwd", refused("scheme")],
  ["ftp://evil.example/bonus.exe", refused("scheme")],
  ["mailto:support@aurora.example", refused("scheme")],
  ["tel:+541100000000", refused("scheme")],
  ["sms:+541100000000", refused("scheme")],
  ["intent://evil.example#Intent;scheme=https;end", refused("scheme")],
  // Tabs, newlines, NUL and other characters browsers strip or act on.
  ["jav\tascript:alert(1)", refused("hidden-character")],
  ["java\nscript:alert(1)", refused("hidden-character")],
  ["java\rscript:alert(1)", refused("hidden-character")],
  ["java\u0000script:alert(1)", refused("hidden-character")],
  ["\u0001javascript:alert(1)", refused("hidden-character")],
  ["\u202Ejavascript:alert(1)", refused("hidden-character")],
  ["/\t/evil.example", refused("hidden-character")],
  ["/\n/evil.example", refused("hidden-character")],
  ["/\r\n/evil.example", refused("hidden-character")],
  ["https://evil.exa\tmple/", refused("hidden-character")],
  ["https://sports.example\u0000.evil.example/", refused("hidden-character")],
  ["/promo\u200Btions", refused("hidden-character")],
  ["/promotions\u00A0", refused("hidden-character")],
  ["\uFEFF//evil.example", refused("hidden-character")],
  // Another host in a site path's clothes.
  ["//evil.example", refused("host")],
  ["//evil.example/promotions", refused("host")],
  ["/\\evil.example", refused("host")],
  ["\\\\evil.example", refused("host")],
  ["\\/evil.example", refused("host")],
  ["https:\\\\evil.example", refused("host")],
  ["/%2F%2Fevil.example", refused("path-trick")],
  ["/%2f%2fevil.example", refused("path-trick")],
  ["/%5Cevil.example", refused("path-trick")],
  ["/.//evil.example", refused("path-trick")],
  ["/games/../..//evil.example", refused("path-trick")],
  ["/promotions%00", refused("path-trick")],
  // Hosts that look like an allowed one, and the allowed ones on other terms.
  ["https://evil.example/", refused("host")],
  ["https://aurora.example@evil.example/", refused("credentials")],
  ["https://user:password@sports.example/", refused("credentials")],
  ["https://evil.example#@sports.example", refused("host")],
  ["https://evil.example?@sports.example", refused("host")],
  ["https://evil.example\\@sports.example", refused("host")],
  ["https://\u0430urora.example/promotions", refused("host")], // Cyrillic а
  ["https://s\u0440\u043Erts.example/", refused("host")], // Cyrillic р and о
  ["https://sports.example.evil.example/", refused("host")],
  ["https://evilsports.example/", refused("host")],
  ["https://sports.example./", refused("host")],
  ["https://sports.example:8443/", refused("host")],
  ["https://aurora.example:444/promotions", refused("host")],
  ["https://0x7f000001/", refused("host")],
  ["https://[::1]/", refused("host")],
  ["http://sports.example/", refused("scheme")],
  ["HTTP://SPORTS.EXAMPLE/", refused("scheme")],
  ["http://aurora.example/promotions", refused("scheme")],
  ["http://plain.example/", refused("scheme")], // an http origin in the list allows nothing
  ["https://plain.example/", refused("host")],
  // The platform's and the gateway's own paths are not screens.
  ["/api/player/logout", refused("platform-path")],
  ["/API/player/logout", refused("platform-path")],
  ["/capi/uploads/offer.html", refused("platform-path")],
  ["https://aurora.example/bff/pay/17", refused("platform-path")],
  // Neutralised rather than refused: the parser reads them as paths of this site, where they show the 404 screen.
  ["jav&#x09;ascript:alert(1)", site("/jav&#x09;ascript:alert(1)")],
  ["%6A%61%76%61script:alert(1)", site("/%6A%61%76%61script:alert(1)")],
  ["https:evil.example", site("/evil.example")], // scheme-relative: a path of an https site
];

/** Every shape a real platform sends: the spec's paths, the sandbox's, and the skin's allowed pages. */
const LEGITIMATE: [string, LinkDecision][] = [
  ["/home", site("/home")],
  ["/promotions", site("/promotions")],
  ["/games/slots?provider=mancala", site("/games/slots?provider=mancala")],
  ["/contactus#faq", site("/contactus#faq")],
  ["/games/slots?provider=mancala#row", site("/games/slots?provider=mancala#row")],
  ["/Events?name=Holiday%20Rush", site("/Events?name=Holiday%20Rush")],
  ["/games/slots?search=a%2Fb", site("/games/slots?search=a%2Fb")],
  ["promotions", site("/promotions")],
  ["./games/slots", site("/games/slots")],
  ["?provider=mancala", site("/?provider=mancala")],
  ["#faq", site("/#faq")],
  ["/", site("/")],
  [" /promotions ", site("/promotions")],
  ["https://aurora.example/promotions", site("/promotions")],
  ["HTTPS://AURORA.EXAMPLE/DropWin", site("/DropWin")],
  ["https://aurora.example:443/ReelD?tab=tournaments", site("/ReelD?tab=tournaments")],
  ["https://sports.example/", external("https://sports.example/")],
  ["https://sports.example/live?lang=es#top", external("https://sports.example/live?lang=es#top")],
  ["HTTPS://SPORTS.EXAMPLE/Live", external("https://sports.example/Live")],
  ["https://Sports.Example:443/x", external("https://sports.example/x")],
  ["https://games.example/lobby/", external("https://games.example/lobby/")],
  ["https://b\u00FCcher.example/", external("https://xn--bcher-kva.example/")],
  ["https://sports.example/?next=https://aurora.example/", external("https://sports.example/?next=https://aurora.example/")],
];

/** The links the sandbox's CMS serves (sandbox/media.py's banners, sandbox/content.py's header links). */
const SANDBOX_LINKS = [
  "/promotions", "/games/slots", "/games/livedealer", "/games/sports", "/DropWin", "/games/Blackjack", "/ReelD",
  "/blackjackleague", "/takeMeFishin", "/Events", "/HolidayRush", "/Evenbetpoker", "/poker",
  ...Object.values(HEADER_LINKS),
];

afterEach(forgetRefusals);

describe("platformLink", () => {
  it("has a table of at least 40 hostile and 20 legitimate values", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
    expect(LEGITIMATE.length).toBeGreaterThanOrEqual(20);
  });

  it.each(HOSTILE)("refuses or neutralises %j", (raw, expected) => {
    const decision = decide(raw);
    expect(decision).toEqual(expected);
    if (decision.kind === "site") expect(new URL(decision.path, rule.origin).origin).toBe(rule.origin);
  });

  it.each(LEGITIMATE)("keeps %j", (raw, expected) => {
    expect(decide(raw)).toEqual(expected);
  });

  it.each(SANDBOX_LINKS)("passes the sandbox's %j whole", (raw) => {
    expect(decide(raw)).toEqual(site(raw));
  });

  it("takes the site's own absolute links on a development origin too", () => {
    const local = { origin: "http://127.0.0.1:8000", allowedHosts: [] };
    expect(platformLink("http://127.0.0.1:8000/promotions?x=1", local)).toEqual(site("/promotions?x=1"));
    expect(platformLink("http://localhost:8000/promotions", local)).toEqual(refused("scheme"));
    expect(platformLink("https://127.0.0.1:8000/promotions", local)).toEqual(refused("host"));
  });

  it("has nothing to follow in an empty link", () => {
    expect(decide("")).toEqual(refused("empty"));
    expect(decide("   ")).toEqual(refused("empty"));
    expect(platformLink(null, rule)).toEqual(refused("empty"));
  });

  it("allows no external host when the skin lists none", () => {
    expect(platformLink("https://sports.example/", { origin: rule.origin, allowedHosts: [] })).toEqual(refused("host"));
  });
});

describe("refusals", () => {
  it("are counted once per value, and an empty link not at all", () => {
    countRefusal("javascript:alert(1)", "scheme");
    countRefusal("javascript:alert(1)", "scheme");
    countRefusal("//evil.example", "host");
    countRefusal("", "empty");
    expect([...refusedLinks()]).toEqual([
      ["javascript:alert(1)", "scheme"],
      ["//evil.example", "host"],
    ]);
  });
});
