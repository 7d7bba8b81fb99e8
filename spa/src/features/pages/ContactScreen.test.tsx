import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { holdAnswers, loggedOut, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { ContactScreen } from "./ContactScreen";

function fill(name: string, value: string) {
  const field = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name=${name}]`)!;
  fireEvent.change(field, { target: { value } });
  fireEvent.blur(field);
}

describe("ContactScreen", () => {
  it("keeps Send disabled until every field is valid, with the field's message", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });
    renderWithProviders(<ContactScreen />);
    const send = await screen.findByTestId("contact-send");
    expect(send).toBeDisabled();
    fill("firstName", "ab");
    expect(screen.getByText(i18n.t("forms:messages.username_must_be_min_4_characters_max_15_characters"))).toBeInTheDocument();
    fill("email", "not-an-email");
    expect(screen.getByText(i18n.t("forms:messages.please_enter_valid_email"))).toBeInTheDocument();
    expect(send).toBeDisabled();
  });

  it("sends the message, empties the form and says it was sent", async () => {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/api/player/contactUs": { success: true } });
    renderWithProviders(<ContactScreen />);
    await screen.findByTestId("contact-send");
    fill("firstName", "player1");
    fill("email", "Player1@Example.com");
    fill("subject", "Deposit");
    fill("userQuestion", "Where is my deposit?");
    fireEvent.click(screen.getByTestId("contact-send"));
    expect(await screen.findByTestId("contact-outcome")).toHaveTextContent(i18n.t("pages:contact.sent"));
    expect(document.querySelector<HTMLInputElement>("[name=subject]")!.value).toBe("");
    await waitFor(async () => {
      const call = fetchMock.mock.calls.find(([r]) => new URL((r as Request).url).pathname === "/api/player/contactUs");
      const body = (await (call![0] as Request).clone().json()) as Record<string, unknown>;
      expect(body).toMatchObject({ firstName: "player1", email: "player1@example.com", face: "sandbox", lang: "es" });
    });
  });

  it("shows the platform's description when it refuses", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/api/player/contactUs": { success: false, description: "Mailbox full" } });
    renderWithProviders(<ContactScreen />);
    await screen.findByTestId("contact-send");
    fill("firstName", "player1");
    fill("email", "p@example.com");
    fill("subject", "Hi");
    fill("userQuestion", "Hello");
    fireEvent.click(screen.getByTestId("contact-send"));
    expect(await screen.findByTestId("contact-outcome")).toHaveTextContent("Mailbox full");
  });

  it("shows a small loader on Send while the message is on its way", async () => {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/api/player/contactUs": { success: true } });
    const release = holdAnswers(fetchMock, (url) => url.pathname === "/api/player/contactUs");
    renderWithProviders(<ContactScreen />);
    const send = await screen.findByTestId("contact-send");
    fill("firstName", "player1");
    fill("email", "player1@example.com");
    fill("subject", "Deposit");
    fill("userQuestion", "Where is my deposit?");
    fireEvent.click(send);
    await waitFor(() => expect(send.querySelector(".spinner")).not.toBeNull());
    expect(send).toHaveTextContent(i18n.t("pages:contact.sending"));
    expect(send).toBeDisabled();
    release();
    expect(await screen.findByTestId("contact-outcome")).toHaveTextContent(i18n.t("pages:contact.sent"));
    expect(send.querySelector(".spinner")).toBeNull();
  });
});
