import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { EVENT_KEY, rememberEvent } from "../../lib/content/storedEvent";
import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { BlackjackLeagueScreen, EventsScreen } from "./ContentScreens";

const strapi = <T,>(data: T[]) => ({ data, meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: data.length } } });
const eventBanner = (id: number, eventName: string, routerLink: string, locale = "es") => ({
  id,
  eventName,
  routerLink,
  status: "active",
  locale,
  eventBanner: { url: `/capi/uploads/event-sandbox-${locale}-${id}.svg` },
});
const site = { "/bff/config": skinConfig, "/bff/session": { loggedIn: false, login: null } };

describe("EventsScreen", () => {
  it("is titled with the name of the event it shows, which it stores for the next visit", async () => {
    stubBff({ ...site, "/capi/event-banners": strapi([eventBanner(1, "Copa de invierno", "/HolidayRush"), eventBanner(2, "Torneo navideño de blackjack", "/Events")]) });
    renderWithProviders(<EventsScreen />, { route: "/Events" });
    expect(await screen.findByRole("heading", { level: 1, name: "Torneo navideño de blackjack" })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(EVENT_KEY)!)).toEqual({ eventName: "Torneo navideño de blackjack", routerLink: "/Events", locale: "es" });
  });

  it("shows the stored event's name before the CMS answers", async () => {
    stubBff(site); // no event banners: the CMS never answers with one
    rememberEvent({ eventName: "Blackjack de Año Nuevo", routerLink: "/Events", locale: "es" });
    renderWithProviders(<EventsScreen />, { route: "/Events" });
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Blackjack de Año Nuevo");
  });

  it("falls back to its own title without an event, or with one stored in another language", async () => {
    stubBff(site);
    rememberEvent({ eventName: "Holiday blackjack tournament", routerLink: "/Events", locale: "en" });
    renderWithProviders(<EventsScreen />, { route: "/Events" });
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Eventos de blackjack");
  });
});

describe("BlackjackLeagueScreen", () => {
  it("groups points and prizes like the site's money", async () => {
    stubBff({
      ...site,
      "/api/leaderboard/list": { success: true, leaderboards: [{ id: "bjl-1", name: "Blackjack League 2026 #48", startDate: "2026-11-23", endDate: "2026-11-29", status: "Active" }] },
      "/api/leaderboard/getParticipants": {
        success: true,
        participants: [
          { rank: 1, nickname: "Lucia42", points: 8123, prize: "Bs. 25,000" },
          { rank: 2, nickname: "Mateo17", points: 950, prize: "Free spins" },
        ],
      },
    });
    renderWithProviders(<BlackjackLeagueScreen />);
    const first = (await screen.findByRole("cell", { name: "Lucia42" })).closest("tr")!;
    expect(first).toHaveTextContent("8.123");
    expect(first).toHaveTextContent("$ 25.000,00");
    expect(screen.getByRole("cell", { name: "Mateo17" }).closest("tr")).toHaveTextContent("Free spins");
  });
});
