import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

import { selectAuth, selectNotice } from "../../lib/store/uiSlice";
import { field, openPopup, stubPlatform } from "./popupTesting";
import { FORGOT_ERROR_MS } from "./ForgotPasswordForm";
import { UNEXPECTED_LOGIN_ANSWER } from "./LoginForm";

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

  it.each([[[]], ["ok"], [{ loginResponse: { login: "demo1" } }], [{ success: "yes" }]])(
    "logs an answer of another shape (%j), without it, and tells the player it failed",
    async (answer) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      stubPlatform({ "/api/player/login": answer });
      const store = openPopup();
      await userEvent.type(field("login"), "demo1");
      await userEvent.type(field("password"), "demo123{Enter}");
      expect(await screen.findByTestId("auth-error")).toHaveTextContent("Algo salió mal, por favor contacta al administrador");
      expect(logged).toHaveBeenCalledWith(UNEXPECTED_LOGIN_ANSWER);
      expect(JSON.stringify(logged.mock.calls)).not.toContain("demo123");
      expect(selectAuth(store.getState()).open).toBe(true);
      logged.mockRestore();
    },
  );

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
