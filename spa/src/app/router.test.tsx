import { render, screen, waitFor } from "@testing-library/react";
import { Provider } from "react-redux";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";

import i18n from "../i18n";
import { loggedOut, skinConfig, stubBff } from "../test/bff";
import { appRoutes, LOBBY_PATHS } from "./router";
import { makeStore } from "./store";

function renderApp(url: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  render(
    <Provider store={makeStore()}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe("app routes", () => {
  it("redirects / to the home screen and applies the skin", async () => {
    const branding = { ...skinConfig.skin.branding, primary: "#33cc99" };
    stubBff({ "/bff/config": { skin: { ...skinConfig.skin, branding } }, "/bff/session": loggedOut });

    const router = renderApp("/");

    expect(await screen.findByRole("heading", { name: "Casino Sandbox" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/home");
    expect(screen.getByRole("group", { name: i18n.t("language.label") })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("Casino Sandbox"));
    expect(document.documentElement.style.getPropertyValue("--color-primary")).toBe("#33cc99");
  });

  it.each([...LOBBY_PATHS])("shows the lobby at %s (its banners are asked for at boot there)", async (path) => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });

    renderApp(path);

    expect(await screen.findByTestId("quick-icons")).toBeInTheDocument();
  });

  it.each([
    ["/slots", "Tragamonedas"],
    ["/sports", "Deportes"],
    ["/horseracing", "Caballos"],
    ["/livedealer", "Casino en vivo"],
  ])("shows the top menu's %s as its games screen, not the 404", async (path, title) => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });

    const router = renderApp(path);

    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.queryByRole("heading", { name: i18n.t("notFound.title") })).not.toBeInTheDocument();
  });

  it("shows the not-found screen outside the layout for unknown paths", async () => {
    stubBff({});

    renderApp("/no-such-page");

    expect(await screen.findByRole("heading", { name: i18n.t("notFound.title") })).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: i18n.t("language.label") })).not.toBeInTheDocument();
  });
});
