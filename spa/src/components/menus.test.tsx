import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { loggedOut, skinConfig, stubBff } from "../test/bff";
import { renderAppAt } from "../test/app";
import { renderWithProviders } from "../test/render";
import { SiteLink } from "./SiteLink";

const providers = [
  { name: "bti", status: 1 },
  { name: "caballo", status: 1 },
  { name: "pragmaticplay", status: 1 },
  { name: "pragmaticplaylivecasino", status: 1 },
];
const player = {
  "/bff/session": { loggedIn: true, login: "demo1" },
  "/api/cashier/balance": { success: true, values: [] },
  "/api/player/getProfile": { success: true, login: "demo1", deposits: 1, withdrawal: 1 },
  "/api/player/getPlayerProviderList": providers.map((p) => ({ name: p.name, status: true })),
};
const meta = { pagination: { page: 1, pageSize: 100, pageCount: 1, total: 3 } };

function renderApp(url: string, answers: Record<string, unknown>) {
  stubBff({ "/bff/config": skinConfig, "/api/agentAccount/getProviders": providers, ...answers });
  return renderAppAt(url);
}

const href = (testId: string) => screen.getByTestId(testId).getAttribute("href");

describe("top menu", () => {
  it("gives a visitor the logged-out menu's paths, Promotions and Contact Us included", async () => {
    renderApp("/home", { "/bff/session": loggedOut });
    await screen.findByTestId("header-login");
    await waitFor(() => expect(href("nav-slots")).toBe("/slots"));
    expect(href("nav-home")).toBe("/home");
    expect(href("nav-livedealer")).toBe("/livedealer");
    expect(href("nav-sports")).toBe("/sports");
    expect(href("nav-horseracing")).toBe("/horseracing");
    expect(href("nav-promotions")).toBe("/promotions");
    expect(href("nav-contactus")).toBe("/contactus");
  });

  it("gives a player the header links' paths, without the visitor's last two", async () => {
    renderApp("/home", player);
    await screen.findByTestId("profile-name");
    expect(href("nav-slots")).toBe("/games/slots");
    expect(href("nav-sports")).toBe("/games/sports");
    expect(screen.queryByTestId("nav-promotions")).not.toBeInTheDocument();
  });

  it("lists the Blackjack League under Events while pragmaticplaylivecasino is on", async () => {
    renderApp("/home", player);
    await screen.findByTestId("profile-name");
    await userEvent.click(screen.getByTestId("nav-events"));
    expect(await screen.findByTestId("nav-blackjackleague")).toHaveAttribute("href", "/blackjackleague");
  });
  it("hides Poker in the top bar and the side menu while evenbetpoker is off (a departure)", async () => {
    const off = [...providers.map((p) => ({ name: p.name, status: true })), { name: "evenbetpoker", status: false }];
    renderApp("/home", { ...player, "/api/player/getPlayerProviderList": off });
    await screen.findByTestId("profile-name");
    await waitFor(() => expect(screen.queryByTestId("nav-poker")).not.toBeInTheDocument());
    await userEvent.click(screen.getByTestId("menu-toggle"));
    expect(await screen.findByTestId("side-slots")).toBeInTheDocument();
    expect(screen.queryByTestId("side-poker")).not.toBeInTheDocument();
  });
});

describe("header links from the CMS", () => {
  const cms = {
    data: [
      { id: 2, name: "Reels", translatedNames: { es: "Máquinas", pt: "Máquinas PT" }, url: "/games/slots", icon: "/capi/uploads/icon-slots.svg" },
      { id: 14, name: "Cards", translatedNames: { es: "Cartas", pt: "Cartas" }, url: "/Evenbetpoker", icon: null },
      { id: 4, name: "Elsewhere", translatedNames: { es: "Afuera", pt: "Fora" }, url: "https://elsewhere.example/", icon: null },
    ],
    meta,
  };

  it("name and address the menus, keeping the built-in link for a url off the site", async () => {
    renderApp("/home", { ...player, "/capi/header-links": cms });
    await screen.findByTestId("profile-name");
    await waitFor(() => expect(screen.getByTestId("nav-slots")).toHaveTextContent("Máquinas"));
    expect(href("nav-poker")).toBe("/Evenbetpoker");
    expect(screen.getByTestId("nav-poker")).toHaveTextContent("Cartas");
    expect(href("nav-livedealer")).toBe("/games/livedealer");
    expect(screen.getByTestId("nav-livedealer")).toHaveTextContent("Afuera");
    expect(screen.getByTestId("nav-sports")).toHaveTextContent("Deportes"); // not in the CMS: built-in
  });

  it("keep the visitor's own paths, with the CMS's names", async () => {
    renderApp("/home", { "/bff/session": loggedOut, "/capi/header-links": cms });
    await waitFor(() => expect(screen.getByTestId("nav-slots")).toHaveTextContent("Máquinas"));
    expect(href("nav-slots")).toBe("/slots");
  });

  it("fall back to the built-in list when the CMS fails", async () => {
    renderApp("/home", player);
    await screen.findByTestId("profile-name");
    expect(screen.getByTestId("nav-slots")).toHaveTextContent("Tragamonedas");
    expect(href("nav-poker")).toBe("/poker");
  });
});

describe("SiteLink", () => {
  it("reloads the page when it leads where the player already is", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    stubBff({});
    renderWithProviders(<SiteLink to="/promotions">Promotions</SiteLink>, { route: "/promotions" });
    await userEvent.click(screen.getByRole("link", { name: "Promotions" }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it("navigates without a reload to another page", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    stubBff({});
    renderWithProviders(<SiteLink to="/home">Home</SiteLink>, { route: "/promotions" });
    await userEvent.click(screen.getByRole("link", { name: "Home" }));
    expect(reload).not.toHaveBeenCalled();
  });
});
