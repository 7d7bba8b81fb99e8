import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { openAuth, selectAuth, selectNotice } from "../../lib/store/uiSlice";
import { makeTestStore } from "../../test/render";
import { renderWithProviders } from "../../test/render";
import AuthPopup from "./AuthPopup";
import { FORGOT_ERROR_MS } from "./ForgotPasswordForm";
import { registerPayload } from "./RegisterForm";

/** The BFF answering POST <path> with the JSON given for it; records the bodies sent. */
function stubPlatform(answers: Record<string, unknown>) {
  const sent: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: Request) => {
      const path = new URL(input.url).pathname;
      const text = input.method === "POST" ? await input.text() : "";
      sent.push({ path, body: text ? JSON.parse(text) : null });
      return Response.json(answers[path] ?? { message: "not found" }, { status: path in answers ? 200 : 404 });
    }),
  );
  return sent;
}

function openPopup(tab: "login" | "forgot" | "register" = "login") {
  const store = makeTestStore();
  store.dispatch(openAuth(tab));
  renderWithProviders(<AuthPopup />, { store });
  return store;
}

const field = (name: string) => document.querySelector<HTMLInputElement>(`[data-testid=auth-popup] input[name=${name}]`)!;

describe("sign-in", () => {
  it("does not submit on Enter while a field is invalid, and says why", async () => {
    const sent = stubPlatform({});
    openPopup();
    await userEvent.type(field("login"), "ab");
    await userEvent.type(field("password"), "1{Enter}");
    expect(await screen.findByText("El nombre de usuario debe tener entre 4 y 15 caracteres")).toBeInTheDocument();
    expect(screen.getByText("La contraseña debe tener entre 6 y 15 caracteres")).toBeInTheDocument();
    expect(sent.filter((call) => call.path === "/api/player/login")).toEqual([]);
  });

  it("keys a username to letters and digits", async () => {
    stubPlatform({});
    openPopup();
    await userEvent.type(field("login"), "de mo-1é");
    expect(field("login").value).toBe("demo1");
  });

  it("signs in, asks for a persistent session and remembers the name only", async () => {
    const sent = stubPlatform({ "/api/player/login": { success: true, loginResponse: { login: "demo1" } } });
    const store = openPopup();
    await userEvent.type(field("login"), "demo1");
    await userEvent.type(field("password"), "demo123{Enter}");
    await waitFor(() => expect(selectAuth(store.getState()).open).toBe(false));
    expect(sent.find((call) => call.path === "/api/player/login")?.body).toEqual({ login: "demo1", password: "demo123", rememberMe: true });
    expect(localStorage.getItem("rrrUserName")).toBe("demo1");
    expect(JSON.stringify({ ...localStorage })).not.toContain("demo123");
  });

  it.each([
    ["Invalid Login or Password", "Usuario o contraseña inválidos"],
    ["LOGIN_FAILD", "Error al iniciar sesión"],
    ["Login already used", "Nombre de usuario ya utilizado"],
    ["Account locked", "Account locked"],
  ])("shows the platform's %s as %s", async (description, shown) => {
    stubPlatform({ "/api/player/login": { success: false, description } });
    openPopup();
    await userEvent.type(field("login"), "demo1");
    await userEvent.type(field("password"), "wrong123{Enter}");
    expect(await screen.findByTestId("auth-error")).toHaveTextContent(shown);
  });

  it("says a sign-in refused after an operator ended the account's sessions, in the player's language", async () => {
    const blocked = { message: "An operator ended this account's sessions: sign in again later", code: "SIGN_IN_BLOCKED", requestId: "r9" };
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(Response.json(blocked, { status: 403, headers: { "retry-after": "840" } }))));
    openPopup("login");
    await userEvent.type(field("login"), "demo1");
    await userEvent.type(field("password"), "demo123");
    fireEvent.click(screen.getByTestId("login-submit"));
    expect(await screen.findByTestId("auth-error")).toHaveTextContent("Un operador cerró las sesiones de esta cuenta.");
  });

  it("closes on Escape", () => {
    stubPlatform({});
    const store = openPopup();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(selectAuth(store.getState()).open).toBe(false);
  });
});

describe("forgot password", () => {
  it("shows the unknown-account message for 5 s", async () => {
    stubPlatform({ "/api/player/forgotPassword": { success: false, description: "Provided Email or Username does not exist" } });
    openPopup("forgot");
    await userEvent.type(field("email"), "Nobody@Example.com");
    await userEvent.type(field("login"), "nobody1");
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByTestId("forgot-submit"));
      expect(await screen.findByTestId("auth-error")).toHaveTextContent("Nombre de usuario ya utilizado");
      act(() => {
        vi.advanceTimersByTime(FORGOT_ERROR_MS + 10);
      });
      expect(screen.queryByTestId("auth-error")).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends the e-mail lower-cased and says the password was sent", async () => {
    const sent = stubPlatform({ "/api/player/forgotPassword": { success: true, description: "Password sent" } });
    const store = openPopup("forgot");
    await userEvent.type(field("email"), "Demo1@Example.com");
    await userEvent.type(field("login"), "demo1{Enter}");
    await waitFor(() => expect(selectNotice(store.getState())).not.toBeNull());
    expect(sent.find((call) => call.path === "/api/player/forgotPassword")?.body).toEqual({ email: "demo1@example.com", login: "demo1" });
    expect(selectNotice(store.getState())).toMatchObject({ text: "Contraseña enviada correctamente al correo registrado" });
  });
});

describe("registration", () => {
  it("builds the registration payload", () => {
    expect(registerPayload({ login: "Neo2024", password: "secret123", email: "Neo@Matrix.IO", acceptTerms: true }, localStorage)).toEqual({
      login: "Neo2024",
      nickname: "Neo2024",
      firstName: "Neo2024",
      lastName: "",
      email: "neo@matrix.io",
      password: "secret123",
      ssn: "",
      campaignCode: "DIRECT01",
      wmReferenceId: "",
      referralType: "",
      address: { address: "", city: "", phone: "", state: "LA RIOJA" },
    });
  });

  it("keeps Sign Up disabled until the terms are accepted", async () => {
    const sent = stubPlatform({ "/api/player/register": { success: true, loginResponse: { login: "neo2024" } } });
    const store = openPopup("register");
    await userEvent.type(field("login"), "neo2024");
    await userEvent.type(field("password"), "secret123");
    await userEvent.type(field("email"), "neo@matrix.io");
    expect(screen.getByTestId("register-submit")).toBeDisabled();
    await userEvent.click(field("acceptTerms"));
    await userEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(selectNotice(store.getState())).toMatchObject({ text: "Tu cuenta ha sido creada con éxito" }));
    const body = sent.find((call) => call.path === "/api/player/register")?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("acceptTerms");
    expect(body.address).toMatchObject({ state: "LA RIOJA" });
  });

  async function signUp(answers: Record<string, unknown>, promocode = "") {
    const sent = stubPlatform(answers);
    const store = openPopup("register");
    await userEvent.type(field("login"), "neo2024");
    await userEvent.type(field("password"), "secret123");
    await userEvent.type(field("email"), "neo@matrix.io");
    if (promocode) await userEvent.type(field("promocode"), promocode);
    await userEvent.click(field("acceptTerms"));
    await userEvent.click(screen.getByTestId("register-submit"));
    await waitFor(() => expect(selectNotice(store.getState())).toMatchObject({ title: "¡Felicitaciones!" }));
    return { sent, store };
  }

  it("sends the promo code the player typed", { timeout: 20_000 }, async () => {
    const { sent } = await signUp({ "/api/player/register": { success: true, loginResponse: { login: "neo2024" } } }, "WELCOME50");
    const body = sent.find((call) => call.path === "/api/player/register")?.body as Record<string, unknown>;
    expect(body.promocode).toBe("WELCOME50");
  });

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
    const { store } = await signUp({
      "/api/player/register": { success: true, loginResponse: { login: "neo2024" } },
      "/bff/session": { loggedIn: false, login: null },
    });
    expect(selectNotice(store.getState())).toMatchObject({ text: "Tu cuenta ha sido creada con éxito Inicia sesión en tu cuenta." });
  });

  it("does not when the player is logged in", { timeout: 20_000 }, async () => {
    const { store } = await signUp({
      "/api/player/register": { success: true, loginResponse: { login: "neo2024" } },
      "/bff/session": { loggedIn: true, login: "neo2024" },
    });
    expect(selectNotice(store.getState())).toMatchObject({ text: "Tu cuenta ha sido creada con éxito" });
  });
});
