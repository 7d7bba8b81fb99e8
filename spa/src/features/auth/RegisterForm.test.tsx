import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { selectAuth, selectNotice } from "../../lib/store/uiSlice";
import { field, openPopup, stubPlatform } from "./popupTesting";
import { registerPayload, type RegisterFields } from "./registration";

const typed: RegisterFields = {
  login: "Neo2024",
  password: "secret123",
  email: "Neo@Matrix.IO",
  firstName: "",
  lastName: "",
  ssn: "",
  address: "Calle Falsa 123",
  phone: "3804123456",
  promocode: "",
};

const sentBody = (sent: { path: string; body: unknown }[]) =>
  sent.find((call) => call.path === "/api/player/register")?.body as Record<string, unknown>;

/** Fills the required fields (and any extra ones given) and accepts the terms. */
async function fillRequired(extra: Partial<Record<keyof RegisterFields, string>> = {}) {
  const values = { login: "neo2024", password: "secret123", email: "neo@matrix.io", address: "Calle Falsa 123", phone: "3804123456", ...extra };
  for (const [name, value] of Object.entries(values)) if (value) await userEvent.type(field(name), value);
  await userEvent.click(field("acceptTerms"));
}

async function signUp(answers: Record<string, unknown>, extra: Partial<Record<keyof RegisterFields, string>> = {}) {
  const sent = stubPlatform(answers);
  const store = openPopup("register");
  await fillRequired(extra);
  await userEvent.click(screen.getByTestId("register-submit"));
  await waitFor(() => expect(selectNotice(store.getState())).toMatchObject({ title: "¡Felicitaciones!" }));
  return { sent, store };
}

const signedUp = { "/api/player/register": { success: true, loginResponse: { login: "neo2024" } } };

describe("the registration payload", () => {
  it("sends nickname and firstName from the login, the e-mail lower-cased, LA RIOJA, and no optional field left empty", () => {
    expect(registerPayload(typed, localStorage)).toEqual({
      login: "Neo2024",
      nickname: "Neo2024",
      firstName: "Neo2024",
      email: "neo@matrix.io",
      password: "secret123",
      campaignCode: "DIRECT01",
      wmReferenceId: "",
      referralType: "",
      address: { address: "Calle Falsa 123", phone: "3804123456", state: "LA RIOJA" },
    });
  });

  it("sends the first name, last name and ssn the player typed", () => {
    const body = registerPayload({ ...typed, firstName: " Thomas ", lastName: "Anderson", ssn: "2012345678" }, localStorage);
    expect(body).toMatchObject({ firstName: "Thomas", lastName: "Anderson", ssn: "2012345678", nickname: "Neo2024" });
  });
});

describe("the registration form", () => {
  it("asks for address and phone, keeps Sign Up disabled until they and the terms are given", async () => {
    stubPlatform(signedUp);
    openPopup("register");
    await userEvent.type(field("login"), "neo2024");
    await userEvent.type(field("password"), "secret123");
    await userEvent.type(field("email"), "neo@matrix.io");
    await userEvent.click(field("acceptTerms"));
    expect(screen.getByTestId("register-submit")).toBeDisabled();
    await userEvent.click(field("address"));
    await userEvent.tab();
    expect(await screen.findByText("Introduce una dirección válida")).toBeInTheDocument();
    await userEvent.type(field("address"), "Calle Falsa 123");
    await userEvent.type(field("phone"), "38-04 12a3456");
    expect(field("phone").value).toBe("3804123456");
    expect(screen.getByTestId("register-submit")).toBeEnabled();
  });

  it("checks the optional fields only when given, with the contracts' messages", async () => {
    stubPlatform(signedUp);
    openPopup("register");
    await fillRequired({ firstName: "T", ssn: "123" });
    await userEvent.tab();
    expect(screen.getByText("El nombre debe tener entre 2 y 16 caracteres")).toBeInTheDocument();
    expect(screen.getByText("El SSN debe tener exactamente 10 caracteres")).toBeInTheDocument();
    expect(screen.getByTestId("register-submit")).toBeDisabled();
    await userEvent.clear(field("firstName"));
    await userEvent.clear(field("ssn"));
    expect(screen.getByTestId("register-submit")).toBeEnabled();
  });

  it("sends what was typed, never acceptTerms, and no empty optional field", { timeout: 20_000 }, async () => {
    const { sent } = await signUp(signedUp, { lastName: "Anderson", promocode: "WELCOME50" });
    const body = sentBody(sent);
    expect(body).not.toHaveProperty("acceptTerms");
    expect(body).not.toHaveProperty("ssn");
    expect(body).toMatchObject({ firstName: "neo2024", lastName: "Anderson", promocode: "WELCOME50" });
    expect(body.address).toEqual({ address: "Calle Falsa 123", phone: "3804123456", state: "LA RIOJA" });
  });

  it("stays open on a refusal with every value kept and the platform's message under its field", { timeout: 20_000 }, async () => {
    const refusal = { success: false, code: "VALIDATION", description: "Phone must be min 7 characters max 12 characters", errors: { phone: "Phone must be min 7 characters max 12 characters" } };
    stubPlatform({ "/api/player/register": refusal });
    const store = openPopup("register");
    await fillRequired({ lastName: "Anderson" });
    await userEvent.click(screen.getByTestId("register-submit"));
    expect(await screen.findAllByText("El teléfono debe tener entre 7 y 12 dígitos")).not.toHaveLength(0);
    expect(selectAuth(store.getState()).open).toBe(true);
    expect(field("phone")).toHaveAttribute("aria-invalid", "true");
    expect([field("login").value, field("lastName").value, field("address").value]).toEqual(["neo2024", "Anderson", "Calle Falsa 123"]);
    expect(field("acceptTerms").checked).toBe(true);
  });
});

describe("after a sign-up", () => {
  it("keeps the affiliate post-back address and the just-registered flag", { timeout: 20_000 }, async () => {
    sessionStorage.clear();
    const postBack = "https://affiliates.example/postback?campaignCode=AFF1&login=neo2024";
    await signUp({
      "/api/player/register": { success: true, loginResponse: { login: "neo2024", affiliatePostBackURL: postBack } },
      "/bff/session": { loggedIn: true, login: "neo2024" },
    });
    expect(sessionStorage.getItem("affiliatePostBackURL")).toBe(postBack);
    expect(sessionStorage.getItem("justRegistered")).toBe("true");
  });

  it("asks the player to log in when the sign-up left no session (the root view's variant)", { timeout: 20_000 }, async () => {
    const { store } = await signUp({ ...signedUp, "/bff/session": { loggedIn: false, login: null } });
    expect(selectNotice(store.getState())).toMatchObject({ text: "Tu cuenta ha sido creada con éxito Inicia sesión en tu cuenta." });
  });

  it("does not when the player is logged in", { timeout: 20_000 }, async () => {
    const { store } = await signUp({ ...signedUp, "/bff/session": { loggedIn: true, login: "neo2024" } });
    expect(selectNotice(store.getState())).toMatchObject({ text: "Tu cuenta ha sido creada con éxito" });
  });
});
