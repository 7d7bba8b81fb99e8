import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { showNotice } from "../lib/store/uiSlice";
import { loggedOut, skinConfig, stubBff } from "../test/bff";
import { renderAppAt } from "../test/app";
import { NOTIFICATION_MS } from "./NoticeHost";

const aurora = { skin: { ...skinConfig.skin, currency: "INR", currencySymbol: "Bs." } };
const balance = {
  success: true,
  values: [
    { wallet: { id: 2, name: "PLAYMONEY" }, symbol: "PM", cash: { value: 10000 }, bonus: { value: 0 }, cashInPlay: { value: 0 } },
    { wallet: { id: 1, name: "INR" }, symbol: "Bs.", preferred: true, cash: { value: 5000 }, bonus: { value: 250 }, cashInPlay: { value: 0 } },
  ],
};
const providers = [
  { name: "bti", status: 1 },
  { name: "caballo", status: 1 },
  { name: "pragmaticplay", status: 1 },
];

function renderApp(url: string, answers: Record<string, unknown>) {
  stubBff({ "/bff/config": aurora, "/api/agentAccount/getProviders": providers, ...answers });
  return renderAppAt(url);
}

describe("header", () => {
  it("offers Login and Join Us to a visitor, and hides Sports when bti is off", async () => {
    renderApp("/home", {
      "/bff/session": loggedOut,
      "/api/agentAccount/getProviders": [{ name: "bti", status: 0 }, { name: "caballo", status: 1 }],
    });
    expect(await screen.findByTestId("header-login")).toHaveTextContent("Iniciar sesión");
    expect(screen.getByTestId("header-join")).toHaveTextContent("Únete");
    await waitFor(() => expect(screen.queryByTestId("nav-sports")).not.toBeInTheDocument(), { timeout: 2000 });
    expect(screen.getByTestId("nav-horseracing")).toBeInTheDocument();
    expect(screen.queryByTestId("profile-block")).not.toBeInTheDocument();
  });

  it("shows a player's name, cash and bonus in Bs. with Argentine digits", async () => {
    renderApp("/home", {
      "/bff/session": { loggedIn: true, login: "demo1" },
      "/api/cashier/balance": balance,
      "/api/player/getProfile": { success: true, login: "demo1", nickname: "demo1", deposits: 1, withdrawal: 1 },
      "/api/player/getPlayerProviderList": providers.map((p) => ({ name: p.name, status: true })),
    });
    expect(await screen.findByTestId("profile-name")).toHaveTextContent("demo1");
    await waitFor(() => expect(screen.getByTestId("balance-cash")).toHaveTextContent("Bs. 5.000,00"));
    expect(screen.getByTestId("balance-bonus")).toHaveTextContent("Bs. 250,00");
    expect(screen.getByTestId("header-deposit")).toBeInTheDocument();
    expect(screen.queryByTestId("header-login")).not.toBeInTheDocument();
  });

  it("drops the deposit and withdrawal links when the profile flags say 0", async () => {
    renderApp("/home", {
      "/bff/session": { loggedIn: true, login: "nocash" },
      "/api/cashier/balance": balance,
      "/api/player/getProfile": { success: true, login: "nocash", deposits: 0, withdrawal: 0 },
      "/api/player/getPlayerProviderList": [],
    });
    await userEvent.click(await screen.findByTestId("account-menu"));
    await waitFor(() => expect(screen.queryByTestId("account-deposit")).not.toBeInTheDocument());
    const menu = screen.getByTestId("account-profile").parentElement!;
    expect(within(menu).queryByTestId("account-withdraw")).not.toBeInTheDocument();
    expect(within(menu).getByTestId("account-transactions")).toBeInTheDocument();
    expect(screen.queryByTestId("header-deposit")).not.toBeInTheDocument();
  });
});

it("shows the player's type from the profile under My Account", async () => {
  renderApp("/home", {
    "/bff/session": { loggedIn: true, login: "demo1" },
    "/api/cashier/balance": balance,
    "/api/player/getProfile": { success: true, login: "demo1", playertype: "REAL", deposits: 1, withdrawal: 1 },
    "/api/player/getPlayerProviderList": [],
  });
  await userEvent.click(await screen.findByTestId("account-menu"));
  expect(await screen.findByTestId("player-type")).toHaveTextContent("Jugador con dinero real");
});

describe("routes", () => {
  it("sends a logged-out visitor from a guarded route to /home", async () => {
    const { router } = renderApp("/mybalance", { "/bff/session": loggedOut });
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
  });

  it("lets a player into a guarded route", async () => {
    const { router } = renderApp("/mybalance", {
      "/bff/session": { loggedIn: true, login: "demo1" },
      "/api/cashier/balance": balance,
      "/api/player/getProfile": { success: true, login: "demo1" },
      "/api/player/getPlayerProviderList": [],
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Mi saldo" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/mybalance");
  });
});

describe("notices", () => {
  it("closes a notification after 4.5 s", async () => {
    const { store } = renderApp("/home", { "/bff/session": loggedOut });
    await screen.findByTestId("header-login");
    vi.useFakeTimers();
    try {
      act(() => {
        store.dispatch(showNotice({ kind: "notification", variant: "info", text: "We are working on it..." }));
      });
      expect(screen.getByTestId("notice-popup")).toHaveTextContent("We are working on it...");
      act(() => {
        vi.advanceTimersByTime(NOTIFICATION_MS - 100);
      });
      expect(screen.getByTestId("notice-popup")).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(screen.queryByTestId("notice-popup")).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
