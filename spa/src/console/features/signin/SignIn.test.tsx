import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { json, refusal } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

describe("signing in", () => {
  it("shows only the sign-in screen without a session, and the console after signing in", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", null);
    expect(await screen.findByTestId("signin-screen")).toBeInTheDocument();
    expect(screen.queryByTestId("overview")).not.toBeInTheDocument();

    await user.type(screen.getByLabelText("Nombre"), "alice");
    await user.type(screen.getByLabelText("Contraseña"), "alice-pass");
    await user.click(screen.getByTestId("signin-submit"));

    expect(await screen.findByTestId("overview")).toBeInTheDocument();
    expect(screen.getByTestId("operator-name")).toHaveTextContent("alice");
    expect(screen.getByTestId("operator-role")).toHaveTextContent("operador");
    expect(server.calls("POST", "/admin/api/session")[0]?.body).toEqual({ name: "alice", password: "alice-pass" });
  });

  it("keeps no secret in the browser's storage", async () => {
    const user = userEvent.setup();
    renderConsole("/", null);
    await user.type(await screen.findByLabelText("Nombre"), "alice");
    await user.type(screen.getByLabelText("Contraseña"), "alice-pass");
    await user.click(screen.getByTestId("signin-submit"));
    await screen.findByTestId("overview");
    const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    expect(stored).not.toContain("alice-pass");
    expect(document.cookie).not.toContain("alice-pass");
  });

  it("says which fields are missing, in the chosen language, without asking the server", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", null);
    await user.click(await screen.findByTestId("signin-submit"));
    expect(screen.getByTestId("name-error")).toHaveTextContent("Este campo es obligatorio.");
    expect(screen.getByTestId("password-error")).toHaveTextContent("Este campo es obligatorio.");
    expect(screen.getByLabelText("Nombre")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls("POST", "/admin/api/session")).toHaveLength(0);

    await user.selectOptions(screen.getByTestId("language"), "en");
    await user.click(screen.getByTestId("signin-submit"));
    expect(screen.getByTestId("name-error")).toHaveTextContent("This field is required.");
  });

  it("shows the server's field errors beside their fields", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", null);
    server.answerOnce("POST", "/admin/api/session", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r", errors: [{ field: "name", code: "REQUIRED", message: "x" }] }),
    );
    await user.type(await screen.findByLabelText("Nombre"), " ");
    await user.type(screen.getByLabelText("Nombre"), "x");
    await user.type(screen.getByLabelText("Contraseña"), "p");
    await user.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("name-error")).toHaveTextContent("Este campo es obligatorio.");
  });

  it("refuses a wrong password, and empties the password field", async () => {
    const user = userEvent.setup();
    renderConsole("/", null);
    await user.type(await screen.findByLabelText("Nombre"), "alice");
    await user.type(screen.getByLabelText("Contraseña"), "guess");
    await user.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("signin-error")).toHaveTextContent("Nombre o contraseña incorrectos.");
    expect(screen.getByLabelText("Contraseña")).toHaveValue("");
    expect(screen.getByLabelText("Nombre")).toHaveValue("alice");
    expect(screen.queryByTestId("signin-dialog")).not.toBeInTheDocument();
  });

  it("says when to try again after too many failures (429 with Retry-After)", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", null);
    server.answerOnce("POST", "/admin/api/session", () =>
      json(429, { message: "limited", code: "SIGN_IN_LIMITED", requestId: "r" }, { "retry-after": "600" }),
    );
    await user.type(await screen.findByLabelText("Nombre"), "alice");
    await user.type(screen.getByLabelText("Contraseña"), "alice-pass");
    await user.click(screen.getByTestId("signin-submit"));
    expect(await screen.findByTestId("signin-error")).toHaveTextContent("Intente de nuevo dentro de 10 minutos.");
  });

  it("signs out back to the sign-in screen and forgets what was shown", async () => {
    const user = userEvent.setup();
    const { server, store } = renderConsole("/", "ada");
    await screen.findByTestId("skin-aurora");
    await user.click(screen.getByTestId("sign-out"));
    expect(await screen.findByTestId("signin-screen")).toBeInTheDocument();
    expect(server.calls("DELETE", "/admin/api/session")).toHaveLength(1);
    await waitFor(() => expect(store.getState().consoleApi.queries).not.toHaveProperty("getOverview(undefined)"));
  });

  it("opens the sign-in dialog over the page when the session ends, then carries on", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/instances", "alice");
    await screen.findAllByTestId("instance");
    server.answerOnce("GET", "/admin/api/instances", () => refusal(401, "SESSION_EXPIRED"));
    server.expired = true;
    // Any refused call (here a reload of the view) opens the dialog.
    await user.click(screen.getByTestId("nav-overview"));
    const dialog = await screen.findByTestId("signin-dialog");
    expect(within(dialog).getByLabelText("Nombre")).toHaveValue("alice");
    expect(screen.getByTestId("overview")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText("Contraseña"), "alice-pass");
    await user.click(within(dialog).getByTestId("signin-submit"));
    await waitFor(() => expect(screen.queryByTestId("signin-dialog")).not.toBeInTheDocument());
    expect(await screen.findByTestId("skin-aurora")).toBeInTheDocument();
  });
});
