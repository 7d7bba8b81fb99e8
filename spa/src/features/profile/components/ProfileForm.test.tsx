import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import type { Profile } from "../../../api/contracts.gen";
import i18n from "../../../i18n";
import { skinConfig, stubBff } from "../../../test/bff";
import { renderWithProviders } from "../../../test/render";
import { ProfileForm } from "./ProfileForm";

const countries = {
  success: true,
  countries: [
    { code: "AR", name: "Argentina" },
    { code: "BR", name: "Brasil" },
  ],
};

function render(country: string) {
  const fetchMock = stubBff({
    "/bff/config": skinConfig,
    "/bff/session": { loggedIn: true, login: "demo1" },
    "/api/player/getCountries": countries,
  });
  const profile: Profile = {
    login: "demo1",
    email: "demo1@example.com",
    firstName: "Ana",
    lastName: "Paz",
    address: { city: "Rosario", phone: "1122334455", country },
  };
  renderWithProviders(<ProfileForm profile={profile} onDone={vi.fn()} />, {
    route: "/profile/edit",
  });
  return fetchMock;
}

const countrySelect = () =>
  screen.getByRole("combobox", { name: i18n.t("profile:fields.country") });

describe("ProfileForm country", () => {
  it("is a select of the platform's countries with the player's own selected", async () => {
    const fetchMock = render("AR");
    await screen.findByRole("option", { name: "Brasil" });
    expect(countrySelect()).toHaveValue("AR");
    expect(screen.getByRole("option", { name: "Argentina" })).toHaveProperty(
      "selected",
      true,
    );
    expect(
      fetchMock.mock.calls.some(
        ([r]) =>
          new URL((r as Request).url).pathname === "/api/player/getCountries",
      ),
    ).toBe(true);
  });

  it("keeps a saved value the list does not have as an option", async () => {
    render("Atlantis");
    await screen.findByRole("option", { name: "Brasil" });
    expect(countrySelect()).toHaveValue("Atlantis");
    expect(
      screen.getByRole("option", { name: "Atlantis" }),
    ).toBeInTheDocument();
  });

  it("shows the field's error in the player's language, as the other fields do", async () => {
    render("AR");
    await screen.findByRole("option", { name: "Brasil" });
    fireEvent.change(countrySelect(), { target: { value: "" } });
    fireEvent.blur(countrySelect());
    await waitFor(() =>
      expect(countrySelect()).toHaveAccessibleDescription(
        "Ingresa un país válido",
      ),
    );
    expect(screen.getByTestId("profile-save")).toBeDisabled();
  });
});
