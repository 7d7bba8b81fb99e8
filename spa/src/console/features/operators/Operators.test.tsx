import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { FakeConsole, json, refusal } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";
import type { OperatorsList } from "./operatorsApi";

const LISTED: OperatorsList = {
  operators: [
    { name: "ada", role: "admin", skins: [], disabled: false, hasPassword: true, linkExpiresAt: null },
    { name: "pia", role: "operator", skins: ["pampa"], disabled: false, hasPassword: false, linkExpiresAt: "2026-11-27T10:00:00Z" },
  ],
  skins: ["aurora", "pampa"],
  managed: true,
};
const invalid = (field: string, code: string) =>
  json(422, { message: "Some fields need fixing", code: "INVALID", requestId: "r", errors: [{ field, code, message: "x" }] });

function withOperators(server: FakeConsole, times = 3) {
  for (let n = 0; n < times; n++) server.answerOnce("GET", "/admin/api/operators", () => json(200, LISTED));
  return server;
}

describe("operators", () => {
  it("lets an admin add an operator limited to a skin and shows the one-time link once", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/operators", "ada", withOperators(new FakeConsole()));
    expect(await screen.findByTestId("operator-pia")).toHaveTextContent("pampa");
    expect(screen.getByTestId("nav-operators")).toHaveTextContent("Operadores");
    const form = screen.getByTestId("add-operator");
    await user.type(within(form).getByLabelText("Nombre"), "Not a name!");
    await user.click(within(form).getByTestId("add-operator-submit"));
    expect(within(form).getByTestId("name-error")).toHaveTextContent("Un nombre tiene de 1 a 64 caracteres");
    expect(server.calls("POST", "/admin/api/operators")).toHaveLength(0);

    server.answerOnce("POST", "/admin/api/operators", () => invalid("name", "NAME_TAKEN"));
    await user.clear(within(form).getByLabelText("Nombre"));
    await user.type(within(form).getByLabelText("Nombre"), "ada");
    await user.click(within(form).getByTestId("add-operator-submit"));
    expect(await within(form).findByTestId("name-error")).toHaveTextContent("Ese nombre ya existe.");

    const linked = { operator: { ...LISTED.operators[1]! , name: "neo" }, link: { path: "/admin/welcome#tok3n", expiresAt: "2026-11-27T10:00:00Z" } };
    server.answerOnce("POST", "/admin/api/operators", () => json(201, linked));
    await user.clear(within(form).getByLabelText("Nombre"));
    await user.type(within(form).getByLabelText("Nombre"), "neo");
    await user.click(within(form).getByTestId("skin-choice-pampa"));
    await user.click(within(form).getByTestId("add-operator-submit"));
    expect(await within(form).findByTestId("link-url")).toHaveValue(`${window.location.origin}/admin/welcome#tok3n`);
    expect(server.calls("POST", "/admin/api/operators")[1]!.body).toEqual({ name: "neo", role: "operator", skins: ["pampa"] });
  });

  it("says why the last admin cannot be demoted, beside the field", async () => {
    const user = userEvent.setup();
    const server = withOperators(new FakeConsole());
    server.answerOnce("PATCH", "/admin/api/operators/ada", () => invalid("role", "LAST_ADMIN"));
    renderConsole("/operators", "ada", server);
    await user.click(await screen.findByTestId("edit-ada"));
    const dialog = screen.getByTestId("edit-operator");
    await user.selectOptions(within(dialog).getByLabelText("Rol"), "viewer");
    await user.click(within(dialog).getByTestId("save-operator"));
    expect(await within(dialog).findByTestId("role-error")).toHaveTextContent("Es el último administrador");
    expect(server.calls("PATCH", "/admin/api/operators/ada")[0]!.body).toEqual({ role: "viewer" });
  });

  it("is not offered to operators and viewers", async () => {
    renderConsole("/", "alice");
    expect(await screen.findByTestId("overview")).toBeInTheDocument();
    expect(screen.queryByTestId("nav-operators")).toBeNull();
  });

  it("leaves out the controls of skins the operator may not change, and says why", async () => {
    const server = new FakeConsole().signInAs("alice");
    server.session = { ...server.session!, skins: ["pampa"] };
    renderConsole("/", null, server);
    const aurora = await screen.findByTestId("skin-aurora");
    expect(await within(aurora).findByTestId("skin-limited-aurora")).toHaveTextContent("Su cuenta solo puede cambiar pampa");
    expect(within(aurora).queryByTestId("purge-open")).toBeNull();
  });
});

describe("a skin refused by the gateway", () => {
  it("is said in the console's language", async () => {
    const user = userEvent.setup();
    const server = new FakeConsole();
    server.answerOnce("POST", "/admin/api/skins/aurora/cache/purge", () => refusal(403, "SKIN_FORBIDDEN", { skin: "aurora" }));
    renderConsole("/", "alice", server);
    await user.click(await screen.findByTestId("purge-open"));
    const dialog = screen.getByTestId("purge-dialog");
    await user.type(within(dialog).getByLabelText(/Motivo/), "stale banners");
    await user.click(within(dialog).getByTestId("action-confirm"));
    expect(await within(dialog).findByTestId("error-notice")).toHaveTextContent("Su cuenta no puede cambiar esta skin");
  });
});

describe("the one-time link's page", () => {
  it("sets the password, then signs in", async () => {
    const user = userEvent.setup();
    const server = new FakeConsole();
    window.history.replaceState(null, "", "/admin/welcome#tok3n");
    server.answerOnce("POST", "/admin/api/welcome", () => invalid("password", "PASSWORD_HAS_NAME"));
    server.answerOnce("POST", "/admin/api/welcome", () => json(200, { name: "alice" }));
    renderConsole("/welcome", null, server);
    expect(window.location.hash).toBe("");
    const page = await screen.findByTestId("welcome-screen");
    await user.type(within(page).getByLabelText("Contraseña nueva"), "alice-pass");
    await user.type(within(page).getByLabelText("La misma contraseña otra vez"), "alice-pasz");
    await user.click(within(page).getByTestId("welcome-submit"));
    expect(within(page).getByTestId("again-error")).toHaveTextContent("Las dos contraseñas no coinciden.");
    await user.clear(within(page).getByLabelText("La misma contraseña otra vez"));
    await user.type(within(page).getByLabelText("La misma contraseña otra vez"), "alice-pass");
    await user.click(within(page).getByTestId("welcome-submit"));
    expect(await within(page).findByTestId("password-error")).toHaveTextContent("no puede contener su nombre");
    await user.click(within(page).getByTestId("welcome-submit"));
    expect(await screen.findByTestId("overview")).toBeInTheDocument();
    expect(server.calls("POST", "/admin/api/welcome")[1]!.body).toEqual({ token: "tok3n", password: "alice-pass" });
    expect(server.calls("POST", "/admin/api/session")[0]!.body).toEqual({ name: "alice", password: "alice-pass" });
  });

  it("says a used or late link is so, in the console's language", async () => {
    const user = userEvent.setup();
    const server = new FakeConsole();
    window.history.replaceState(null, "", "/admin/welcome#used");
    server.answerOnce("POST", "/admin/api/welcome", () => invalid("token", "LINK_EXPIRED"));
    renderConsole("/welcome", null, server);
    const page = await screen.findByTestId("welcome-screen");
    await user.type(within(page).getByLabelText("Contraseña nueva"), "a harbour at dawn 7");
    await user.type(within(page).getByLabelText("La misma contraseña otra vez"), "a harbour at dawn 7");
    await user.click(within(page).getByTestId("welcome-submit"));
    expect(await within(page).findByTestId("link-error")).toHaveTextContent("Este enlace de acceso venció.");
  });
});
