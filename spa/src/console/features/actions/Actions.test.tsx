import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { refusal } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

describe("purge and revoke", () => {
  it("purges a skin's cache after a confirmation with a reason", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    await user.click(await screen.findByTestId("purge-open"));
    const dialog = screen.getByTestId("purge-dialog");
    expect(dialog).toHaveTextContent("Se descartan los contenidos en caché de Aurora Casino");
    await user.click(within(dialog).getByTestId("action-confirm"));
    expect(within(dialog).getByTestId("reason-error")).toHaveTextContent("Indique un motivo");
    expect(server.calls("POST", "/admin/api/skins/aurora/cache/purge")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Motivo/), "stale banners");
    await user.click(within(dialog).getByTestId("action-confirm"));
    expect(await within(dialog).findByTestId("action-done")).toHaveTextContent("3 entradas locales y 7 compartidas");
    expect(server.calls("POST", "/admin/api/skins/aurora/cache/purge")[0]!.body).toEqual({ reason: "stale banners" });
    expect(server.audit[0]).toMatchObject({ action: "purge", who: "alice", reason: "stale banners" });
  });

  it("ends a player's sessions: the login is required, the answer says how many", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    await user.click(await screen.findByTestId("revoke-open"));
    const dialog = screen.getByTestId("revoke-dialog");
    await user.type(within(dialog).getByLabelText(/Motivo/), "account taken over");
    await user.click(within(dialog).getByTestId("action-confirm"));
    expect(within(dialog).getByTestId("login-error")).toHaveTextContent("Este campo es obligatorio.");

    await user.type(within(dialog).getByLabelText("Usuario del jugador"), "demo1");
    await user.click(within(dialog).getByTestId("action-confirm"));
    const done = await within(dialog).findByTestId("action-done");
    expect(done).toHaveTextContent("Se cerraron 2 sesiones de demo1. Sus inicios de sesión se rechazan hasta 2 dic 2026, 14:17:11 UTC.");
    expect(done).toHaveAttribute("data-tone", "ok");
    expect(server.calls("POST", "/admin/api/skins/aurora/players/demo1/revoke")).toHaveLength(1);
  });

  it("says in amber, not as a success, that a mistyped login had no session", async () => {
    const user = userEvent.setup();
    renderConsole("/", "alice");
    await user.click(await screen.findByTestId("revoke-open"));
    const dialog = screen.getByTestId("revoke-dialog");
    await user.type(within(dialog).getByLabelText("Usuario del jugador"), "demo-1");
    await user.type(within(dialog).getByLabelText(/Motivo/), "account taken over");
    await user.click(within(dialog).getByTestId("action-confirm"));
    const done = await within(dialog).findByTestId("action-done");
    expect(done).toHaveTextContent("No se encontró ninguna sesión de demo-1: no se cerró nada.");
    expect(done).toHaveAttribute("data-tone", "warn");
    expect(done).toHaveClass("notice--warn");
  });

  it("shows a 403 as such and keeps what was typed", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.answerOnce("POST", "/admin/api/skins/aurora/players/demo1/revoke", () => refusal(403, "FORBIDDEN", { needs: "operator" }));
    await user.click(await screen.findByTestId("revoke-open"));
    const dialog = screen.getByTestId("revoke-dialog");
    await user.type(within(dialog).getByLabelText("Usuario del jugador"), "demo1");
    await user.type(within(dialog).getByLabelText(/Motivo/), "account taken over");
    await user.click(within(dialog).getByTestId("action-confirm"));
    expect(await within(dialog).findByTestId("error-notice")).toHaveTextContent("hace falta el rol operador");
    expect(within(dialog).getByLabelText("Usuario del jugador")).toHaveValue("demo1");
    expect(within(dialog).getByLabelText(/Motivo/)).toHaveValue("account taken over");
  });
});
