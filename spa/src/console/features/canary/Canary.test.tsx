import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { FakeConsole } from "../../test/fakeConsole";
import { canary, figures, verdict } from "../../test/fakeCanaries";
import { renderConsole } from "../../test/render";
import { LIVE_REFRESH_MS } from "./CanaryScreen";

function withCanary(...canaries: ReturnType<typeof canary>[]) {
  const server = new FakeConsole();
  server.canaries.list = canaries;
  return server;
}

/** How often the view polls its canary now (0: not at all), read from the store's subscriptions. */
function pollingOf(store: ReturnType<typeof renderConsole>["store"], id: string): number {
  const subscribers = store.getState().consoleApi.subscriptions[`getCanary("${id}")`] ?? {};
  return Math.max(0, ...Object.values(subscribers).map((s) => s?.pollingInterval ?? 0));
}

describe("a canary's view", () => {
  it("shows both targets, the step and its time left, and the last check's figures side by side", async () => {
    const failing = verdict({
      outcome: "failed", reasons: ["p99 812 ms > 500 ms at 10 %"], old: figures({ p99S: 0.204 }),
      new: figures({ p99S: 0.812, errors: 0.031, answers: 48, loginSuccess: null, logins: 0 }),
    });
    renderConsole("/canaries/aurora-1a2b3c4d", "vera", withCanary(canary({ failed: 1, verdicts: [verdict(), failing] })));
    expect(await screen.findByTestId("canary-target-old")).toHaveTextContent("http://127.0.0.1:8001");
    expect(screen.getByTestId("canary-target-old")).toHaveTextContent("90 % de los jugadores nuevos");
    expect(screen.getByTestId("canary-target-new")).toHaveTextContent("https://cms-2.example10 % de los jugadores nuevos");
    expect(screen.getByTestId("canary-state")).toHaveTextContent("en curso");
    expect(screen.getByTestId("canary-step-now")).toHaveTextContent("2 de 4: 10 % al nuevo upstream");
    expect(screen.getByTestId("canary-left")).toHaveTextContent(/^3min( \d+s)?$/);
    expect(screen.getByTestId("canary-failed")).toHaveTextContent("1 de 3 que lo revierten");

    const last = screen.getAllByTestId("canary-verdict")[0]!;
    expect(last).toHaveAttribute("data-outcome", "failed");
    expect(last).toHaveTextContent(/\d{2}:\d{2}:\d{2} UTC/);
    expect(within(last).getByTestId("verdict-reasons")).toHaveTextContent("p99 812 ms > 500 ms at 10 %");
    const p99 = within(last).getByTestId("figure-p99");
    expect(within(p99).getByTestId("figure-old")).toHaveTextContent("204 ms");
    expect(within(p99).getByTestId("figure-new")).toHaveTextContent("812 ms");
    expect(p99).toHaveTextContent("como mucho 500 ms, o tan lento como el viejo");
    expect(within(within(last).getByTestId("figure-errors")).getByTestId("figure-new")).toHaveTextContent("3,1 %");
    expect(within(within(last).getByTestId("figure-logins")).getByTestId("figure-new")).toHaveTextContent("– (0)");
    expect(within(last).getByTestId("figure-answers")).toHaveTextContent("12048");
    // Viewers watch; they do not move it.
    expect(screen.queryByTestId("canary-actions")).not.toBeInTheDocument();
  });

  it("lists every step: passed, now, to come, each with its checks counted", async () => {
    renderConsole("/canaries/aurora-1a2b3c4d", "vera", withCanary(canary({
      verdicts: [verdict({ step: 0 }), verdict({ step: 0, at: 2 }), verdict({ outcome: "too-few" }), verdict({ outcome: "failed", at: 3 })],
    })));
    const steps = await screen.findAllByTestId("canary-history-step");
    expect(steps.map((step) => step.dataset.state)).toEqual(["done", "current", "next", "next"]);
    expect(steps[0]).toHaveTextContent("Paso 1: 1 %durante 5 minutospasó2 comprobaciones: 2 pasó");
    expect(steps[1]).toHaveTextContent("2 comprobaciones: 1 falló, 1 pocas respuestas");
    expect(within(steps[2]!).queryByTestId("canary-verdict")).not.toBeInTheDocument();
  });

  it("polls while live and stops once it has ended, saying how it ended", async () => {
    const server = withCanary(canary());
    const { store } = renderConsole("/canaries/aurora-1a2b3c4d", "vera", server);
    await screen.findByTestId("canary-now");
    await waitFor(() => expect(pollingOf(store, "aurora-1a2b3c4d")).toBe(LIVE_REFRESH_MS));

    Object.assign(server.canaries.list[0]!, {
      state: "rolled-back", ended: Date.now() / 1000, endedBy: "system", share: 0, failed: 3,
      endedReason: "p99 812 ms > 500 ms at 10 %, 3 checks",
    });
    const end = await screen.findByTestId("canary-end", {}, { timeout: 3 * LIVE_REFRESH_MS });
    expect(end).toHaveTextContent(/^Se revirtió solo \(.+ UTC\): p99 812 ms > 500 ms at 10 %, 3 checks$/);
    expect(screen.queryByTestId("canary-now")).not.toBeInTheDocument();
    await waitFor(() => expect(pollingOf(store, "aurora-1a2b3c4d")).toBe(0));
    expect(screen.getAllByTestId("canary-history-step").map((step) => step.dataset.state)).toEqual(["done", "ended", "skipped", "skipped"]);
  });

  it("pauses, resumes and aborts with a reason each; once ended nothing can be done to it", async () => {
    const user = userEvent.setup();
    const server = withCanary(canary());
    renderConsole("/canaries/aurora-1a2b3c4d", "alice", server);
    await user.click(await screen.findByTestId("canary-pause"));
    let dialog = screen.getByTestId("canary-action-dialog");
    expect(dialog).toHaveTextContent("Pausar el canario de aurora capi");
    await user.type(within(dialog).getByLabelText(/Motivo/), "no");
    await user.click(within(dialog).getByTestId("canary-action-confirm"));
    expect(within(dialog).getByTestId("reason-error")).toHaveTextContent("Indique un motivo de 3 a 500 caracteres.");
    expect(server.calls("POST", "/admin/api/canaries/aurora-1a2b3c4d/pause")).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/Motivo/), "t: the CMS team is looking");
    await user.click(within(dialog).getByTestId("canary-action-confirm"));
    await waitFor(() => expect(screen.getByTestId("canary-state")).toHaveTextContent("en pausa"));
    expect(server.calls("POST", "/admin/api/canaries/aurora-1a2b3c4d/pause")[0]!.body).toEqual({ reason: "not: the CMS team is looking" });
    expect(screen.getByTestId("canary-left")).toHaveTextContent("detenido mientras está en pausa");
    expect(screen.getByTestId("canary-pause")).toBeDisabled();

    await user.click(screen.getByTestId("canary-resume"));
    dialog = screen.getByTestId("canary-action-dialog");
    await user.type(within(dialog).getByLabelText(/Motivo/), "they found nothing");
    await user.click(within(dialog).getByTestId("canary-action-confirm"));
    await waitFor(() => expect(screen.getByTestId("canary-state")).toHaveTextContent("en curso"));

    await user.click(screen.getByTestId("canary-abort"));
    dialog = screen.getByTestId("canary-action-dialog");
    await user.type(within(dialog).getByLabelText(/Motivo/), "the wallet team asked");
    await user.click(within(dialog).getByTestId("canary-action-confirm"));
    expect(await screen.findByTestId("canary-end")).toHaveTextContent(/^Abortado por alice el .+ UTC: the wallet team asked$/);
    for (const action of ["pause", "resume", "promote", "abort"]) expect(screen.getByTestId(`canary-${action}`)).toBeDisabled();
  });

  it("says so when another operator ended it first", async () => {
    const user = userEvent.setup();
    const server = withCanary(canary());
    renderConsole("/canaries/aurora-1a2b3c4d", "alice", server);
    await user.click(await screen.findByTestId("canary-promote"));
    Object.assign(server.canaries.list[0]!, { state: "aborted", ended: 1, endedBy: "bob", endedReason: "x" });
    const dialog = screen.getByTestId("canary-action-dialog");
    await user.type(within(dialog).getByLabelText(/Motivo/), "it is fine");
    await user.click(within(dialog).getByTestId("canary-action-confirm"));
    expect(await within(dialog).findByTestId("error-notice")).toHaveTextContent("Este canario ya terminó: no se hizo nada.");
  });
});

describe("a canary that is not there", () => {
  it("is said in words, and not asked for again", async () => {
    const { store } = renderConsole("/canaries/aurora-nope", "vera", withCanary(canary()));
    expect(await screen.findByTestId("error-notice")).toHaveTextContent("No hay tal canario");
    await waitFor(() => expect(pollingOf(store, "aurora-nope")).toBe(0));
  });
});

describe("the canaries elsewhere", () => {
  it("the status line names a running canary and links to its view", async () => {
    const user = userEvent.setup();
    const server = withCanary(canary());
    server.status = { ...server.status, canaries: [{ id: "aurora-1a2b3c4d", skin: "aurora", upstream: "capi", state: "running", step: 1, share: 0.1 }] };
    renderConsole("/history", "vera", server);
    const link = await screen.findByTestId("status-canary");
    expect(link).toHaveTextContent("canario de aurora capi al 10 %");
    await user.click(link);
    expect(await screen.findByTestId("canary-now")).toBeInTheDocument();
  });

  it("the skin's card names its live canary; the list shows live and ended ones", async () => {
    const ended = canary({ id: "aurora-0", state: "promoted", ended: 10, endedBy: "system", promotedVersion: "v2-bbbbbbbbbbbbbb", share: 0 });
    renderConsole("/", "vera", withCanary(canary(), ended));
    expect(await screen.findByTestId("skin-canaries-aurora")).toHaveTextContent("Canario en capi: 10 % de los jugadores nuevos");
    await userEvent.setup().click(screen.getByTestId("nav-canaries"));
    const rows = await screen.findAllByTestId("canary-row");
    expect(rows.map((row) => row.dataset.state)).toEqual(["running", "promoted"]);
    expect(rows[0]).toHaveTextContent("Paso 2 de 4: 10 %");
    expect(rows[1]).toHaveTextContent(/Promovido solo tras su último paso \(.+\): ahora es la versión v2-bbbbbbbbb de la configuración\./);
  });
});
