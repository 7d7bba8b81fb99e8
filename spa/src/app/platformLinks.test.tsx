import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";

import { forgetRefusals, refusedLinks } from "../lib/links/links";
import { loggedOut, skinConfig, stubBff } from "../test/bff";
import { renderAppAt } from "../test/app";

/** Links a hostile CMS sends beside the real ones, on every collection that carries links. */
const HOSTILE = [
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "//evil.example",
  "/\\evil.example",
  "/\t/evil.example",
  "/%2F%2Fevil.example",
  "https://evil.example/",
  "http://sports.example/",
  "https://aurora.example@evil.example/",
];
const ORIGIN = window.location.origin;
const LEGITIMATE = ["/games/slots", "promotions", `${ORIGIN}/DropWin?x=1#top`, "https://sports.example/live"];
const config = { skin: { ...skinConfig.skin, linkHosts: ["https://sports.example"] } };
const meta = { pagination: { page: 1, pageSize: 100, pageCount: 1, total: 1 } };
const media = (name: string) => ({ url: `/capi/uploads/${name}.svg`, alternativeText: name, width: 800, height: 300 });

function banners(kind: "hero" | "lobby" | "footer" | "poker" | "event") {
  const image = { hero: "heroBanner", lobby: "LobbyImage", footer: "FooterImage", poker: "pokerBanner", event: "eventBanner" }[kind];
  const links = [...LEGITIMATE, ...HOSTILE];
  const data = links.map((routerLink, n) => ({
    id: n + 1,
    title: `${kind} ${n}`,
    eventName: `${kind} ${n}`,
    routerLink: kind === "event" ? "/Events" : routerLink,
    status: "active",
    locale: "es",
    [image]: media(`${kind}-${n}`),
  }));
  return { data, meta };
}

const headerLinks = {
  data: [
    { id: 2, name: "Slots", translatedNames: { es: "Tragamonedas CMS", pt: "Slots" }, url: "/\\evil.example", icon: null },
    { id: 4, name: "Live", translatedNames: { es: "En vivo CMS", pt: "Ao vivo" }, url: "javascript:alert(1)", icon: null },
    { id: 3, name: "Sports", translatedNames: { es: "Deportes CMS", pt: "Esportes" }, url: "https://sports.example/book", icon: null },
    { id: 14, name: "Poker", translatedNames: { es: "Póker CMS", pt: "Pôquer" }, url: "/\t/evil.example", icon: null },
    { id: 5, name: "Horses", translatedNames: { es: "Caballos CMS", pt: "Cavalos" }, url: "/games/horseracing?from=cms", icon: null },
  ],
  meta,
};

const player = {
  "/bff/session": { loggedIn: true, login: "demo1" },
  "/api/cashier/balance": { success: true, values: [] },
  "/api/player/getProfile": { success: true, login: "demo1", deposits: 1, withdrawal: 1 },
  "/api/player/getPlayerProviderList": ["bti", "caballo", "evenbetpoker", "pragmaticplay"].map((name) => ({ name, status: true })),
};

function renderSite(url: string, answers: Record<string, unknown> = {}) {
  stubBff({
    "/bff/config": config,
    "/bff/session": loggedOut,
    "/capi/home-banners": banners("hero"),
    "/capi/lobby-slot-images": banners("lobby"),
    "/capi/footer-slot-images": banners("footer"),
    "/capi/poker-banners": banners("poker"),
    "/capi/header-links": headerLinks,
    ...answers,
  });
  return renderAppAt(url);
}

/** Every link on the page leads to a path of this site, or to the allowed host in a new tab (the
 * skip link and the footer's built-in social pages aside: they do not come from the platform). */
function expectOnlyAllowedLinks() {
  for (const link of document.querySelectorAll("a:not([href^='#']):not(.site-footer__social a)")) {
    const href = link.getAttribute("href") ?? "";
    if (href.startsWith("https://")) {
      expect(new URL(href).origin).toBe("https://sports.example");
      expect(link).toHaveAttribute("target", "_blank");
      expect(link).toHaveAttribute("rel", "noopener noreferrer");
    } else {
      expect(href).toMatch(/^\/(?![/\\])/);
      expect(new URL(href, ORIGIN).origin).toBe(ORIGIN);
    }
  }
}

/** Within a banner group: the legitimate banners' links, and the hostile ones' art shown unlinked. */
function expectBanners(group: HTMLElement, kind: string) {
  const hrefs = LEGITIMATE.map((_, n) => within(group).getByAltText(`${kind}-${n}`).closest("a")?.getAttribute("href"));
  expect(hrefs).toEqual(["/games/slots", "/promotions", "/DropWin?x=1#top", "https://sports.example/live"]);
  HOSTILE.forEach((_, n) => {
    const art = within(group).getByAltText(`${kind}-${n + LEGITIMATE.length}`);
    expect(art.closest("a")).toBeNull();
  });
}

afterEach(forgetRefusals);

describe("links from the platform", () => {
  it("keep every home banner and its legitimate links, and drop each hostile link", async () => {
    renderSite("/home");
    const hero = await screen.findByTestId("hero-banners");
    await waitFor(() => expect(within(hero).getByAltText("hero-0").closest("a")).not.toBeNull());
    fireEvent.load(within(hero).getByAltText("hero-0"));
    expectBanners(hero, "hero");
    const lobby = await screen.findByTestId("lobby-banners");
    expectBanners(lobby, "lobby");
    expectBanners(await screen.findByTestId("footer-banners", {}, { timeout: 5000 }), "footer");
    expectOnlyAllowedLinks();
    expect(new Set(refusedLinks().keys())).toEqual(new Set(HOSTILE));
  });

  it("keep the promotions and drop their hostile links", async () => {
    renderSite("/promotions");
    expectBanners(await screen.findByTestId("lobby-banners"), "lobby");
    expectBanners(await screen.findByTestId("footer-banners"), "footer");
    expectOnlyAllowedLinks();
  });

  it("keep the poker banners and drop their hostile links", async () => {
    renderSite("/poker", player);
    const poker = await screen.findByTestId("poker-banners");
    await waitFor(() => expect(within(poker).getByAltText("poker-0").closest("a")).not.toBeNull());
    expectBanners(poker, "poker");
    expectOnlyAllowedLinks();
  });

  it("give a header link's entry its built-in path when the CMS's url is refused", async () => {
    renderSite("/home", player);
    await screen.findByTestId("profile-name");
    await waitFor(() => expect(screen.getByTestId("nav-slots")).toHaveTextContent("Tragamonedas CMS"));
    expect(screen.getByTestId("nav-slots")).toHaveAttribute("href", "/games/slots");
    expect(screen.getByTestId("nav-livedealer")).toHaveAttribute("href", "/games/livedealer");
    expect(screen.getByTestId("nav-poker")).toHaveAttribute("href", "/poker");
    expect(screen.getByTestId("nav-horseracing")).toHaveAttribute("href", "/games/horseracing?from=cms");
    const sports = screen.getByTestId("nav-sports");
    expect(sports).toHaveAttribute("href", "https://sports.example/book");
    expect(sports).toHaveAttribute("target", "_blank");
    expect(sports).toHaveAttribute("rel", "noopener noreferrer");
    expectOnlyAllowedLinks();
  });

  it("give the side menu the same entries", async () => {
    renderSite("/home", player);
    await screen.findByTestId("profile-name");
    await waitFor(() => expect(screen.getByTestId("nav-slots")).toHaveTextContent("Tragamonedas CMS"));
    await userEvent.click(screen.getByTestId("menu-toggle"));
    const menu = await screen.findByTestId("side-menu");
    expect(within(menu).getByTestId("side-slots")).toHaveAttribute("href", "/games/slots");
    expect(within(menu).getByTestId("side-poker")).toHaveAttribute("href", "/poker");
    expect(within(menu).getByTestId("side-sports")).toHaveAttribute("href", "https://sports.example/book");
    expectOnlyAllowedLinks();
  });

  it("show the CMS's frequent questions as text, markup and all", async () => {
    const answer = '<img src=x onerror="window.__pwned=1"><a href="javascript:alert(1)">here</a>';
    renderSite("/contactus", {
      "/capi/faqs": { data: [{ id: 1, topic: "deposits", question: "<b>How?</b>", answer, order: 1, status: "active", locale: "es" }], meta },
    });
    const faq = await screen.findByTestId("faq-deposits");
    expect(within(faq).getByText("<b>How?</b>")).toBeInTheDocument();
    expect(within(faq).getByText(answer)).toBeInTheDocument();
    expect(faq.querySelector("img, a, b")).toBeNull();
  });
});
