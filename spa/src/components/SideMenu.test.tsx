import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";

import { renderAppAt } from "../test/app";
import { loggedOut, skinConfig, stubBff } from "../test/bff";

const aurora = { skin: { ...skinConfig.skin, currency: "INR", currencySymbol: "Bs." } };
const balance = {
  success: true,
  values: [{ wallet: { id: 1, name: "INR" }, symbol: "Bs.", cash: { value: 5000 }, bonus: { value: 250 }, cashInPlay: { value: 0 } }],
};

function renderApp(answers: Record<string, unknown>) {
  stubBff({ "/bff/config": aurora, "/api/agentAccount/getProviders": [], ...answers });
  renderAppAt("/home");
}

async function openSideMenu() {
  await userEvent.click(await screen.findByTestId("menu-toggle"));
  return screen.findByTestId("side-menu");
}

describe("side menu", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lets a phone change the language: the choice is stored and the page reloads", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    renderApp({ "/bff/session": loggedOut });
    const menu = await openSideMenu();

    const languages = await within(menu).findByRole("group", { name: "Idioma" }); // once the skin is known
    expect(within(languages).getByRole("button", { name: "Español" })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(within(languages).getByRole("button", { name: "Português" }));

    expect(localStorage.getItem("locale")).toBe("pt");
    expect(localStorage.getItem("localS")).toBe("pt");
    expect(reload).toHaveBeenCalledOnce();
  });

  it("offers only the skin's languages", async () => {
    renderApp({ "/bff/config": { skin: { ...aurora.skin, locales: ["es", "en"] } }, "/bff/session": loggedOut });
    const menu = await openSideMenu();
    await waitFor(() => expect(within(menu).queryByTestId("side-language-pt")).not.toBeInTheDocument());
    expect(within(menu).getByTestId("side-language-en")).toHaveTextContent("English");
  });

  it("shows a player the name, cash and bonus the phone's header has no room for", async () => {
    renderApp({
      "/bff/session": { loggedIn: true, login: "demo1" },
      "/api/cashier/balance": balance,
      "/api/player/getProfile": { success: true, login: "demo1", nickname: "demo1", deposits: 1, withdrawal: 1 },
      "/api/player/getPlayerProviderList": [],
    });
    const menu = await openSideMenu();

    const card = within(menu).getByTestId("side-player");
    await waitFor(() => expect(within(card).getByTestId("side-balance-cash")).toHaveTextContent("Bs. 5.000,00"));
    expect(within(card).getByTestId("side-player-name")).toHaveTextContent("demo1");
    expect(within(card).getByTestId("side-balance-bonus")).toHaveTextContent("Bs. 250,00");
    expect(within(card).getByText("Bono")).toBeInTheDocument();
  });

  it("shows a visitor no player card", async () => {
    renderApp({ "/bff/session": loggedOut });
    const menu = await openSideMenu();
    expect(within(menu).queryByTestId("side-player")).not.toBeInTheDocument();
  });
});
