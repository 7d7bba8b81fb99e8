import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { loggedOut, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { HomeScreen } from "./HomeScreen";

describe("HomeScreen", () => {
  it("shows the skin name from /bff/config and the logged-out state from /bff/session", async () => {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });

    renderWithProviders(<HomeScreen />, { route: "/home" });

    expect(await screen.findByRole("heading", { name: "Casino Sandbox" })).toBeInTheDocument();
    expect(await screen.findByText(i18n.t("session.loggedOut"))).toBeInTheDocument();
    const paths = fetchMock.mock.calls.map(([request]) => new URL((request as Request).url).pathname);
    expect(paths.sort()).toEqual(["/bff/config", "/bff/session"]);
  });

  it("names the player when logged in", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": { loggedIn: true, login: "player1" } });

    renderWithProviders(<HomeScreen />, { route: "/home" });

    expect(await screen.findByText(i18n.t("session.loggedInAs", { login: "player1" }))).toBeInTheDocument();
  });

  it("says so when the BFF cannot give the config", async () => {
    stubBff({ "/bff/session": loggedOut });

    renderWithProviders(<HomeScreen />, { route: "/home" });

    expect(await screen.findByText(i18n.t("status.configUnavailable"))).toBeInTheDocument();
  });
});
