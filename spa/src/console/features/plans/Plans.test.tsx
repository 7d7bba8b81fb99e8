import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { json } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

const PENDING = {
  id: "a-1", kind: "change", skin: "aurora", upstream: "api", url: "https://wallet-2.example", by: "bob", via: "console",
  reason: "new wallet", created: 1764680000, outcome: null, ended: null, endedBy: null, endedReason: null, at: null,
  state: "pending", expires: 1764766400,
};

describe("the planned view", () => {
  it("approves another operator's change with a reason, and words the gateway's refusal of one's own", async () => {
    const { server } = renderConsole("/plans", "alice");
    server.approvals = [PENDING];
    const row = await screen.findByTestId("planned-a-1");
    expect(row).toHaveTextContent("aurora api → https://wallet-2.example");
    expect(row).toHaveTextContent("pedido por bob");
    server.answerOnce("POST", "/admin/api/approvals/a-1/approve", () =>
      json(403, { code: "SELF_APPROVAL", message: "own", requestId: "r-1" }),
    );
    await userEvent.type(within(row).getByLabelText(/^Motivo/), "checked with the platform");
    await userEvent.click(within(row).getByTestId("planned-approve"));
    expect(await within(row).findByRole("alert")).toHaveTextContent("otro operador");
    server.approvals = [{ ...PENDING, state: "approved", outcome: "applied v2", endedBy: "alice" }];
    server.answerOnce("POST", "/admin/api/approvals/a-1/approve", () => json(200, { approval: server.approvals[0] }));
    await userEvent.click(within(row).getByTestId("planned-approve"));
    await waitFor(() => expect(screen.getByTestId("planned-state")).toHaveTextContent("aprobado"));
    expect(screen.getByTestId("planned-outcome")).toHaveTextContent("creó la versión v2");
    const sent = server.requests.filter((r) => r.path === "/admin/api/approvals/a-1/approve").map((r) => r.body);
    expect(sent).toEqual([{ reason: "checked with the platform" }, { reason: "checked with the platform" }]);
  });

  it("words what became of a scheduled change in the operator's language", async () => {
    const { server } = renderConsole("/plans", "alice");
    const ended = { ...PENDING, at: 1764680000, expires: undefined, endedBy: "system" };
    server.scheduled = [
      { ...ended, id: "s-1", state: "failed", outcome: "VERSION_CONFLICT: aurora moved on since" },
      { ...ended, id: "s-2", state: "cancelled", outcome: "cancelled by bob", endedBy: "bob" },
      { ...ended, id: "s-3", state: "done", outcome: "started aurora-1a2b", kind: "canary" },
    ];
    const failed = await screen.findByTestId("planned-s-1");
    expect(within(failed).getByTestId("planned-outcome")).toHaveTextContent("Otra persona cambió la configuración");
    expect(within(screen.getByTestId("planned-s-2")).getByTestId("planned-outcome")).toHaveTextContent(/^\s*$/);
    expect(within(screen.getByTestId("planned-s-3")).getByTestId("planned-outcome")).toHaveTextContent("canario aurora-1a2b iniciado");
  });

  it("sends a skin's maintenance with its end typed in UTC and says the gateway's field errors", async () => {
    const { server } = renderConsole("/plans", "alice");
    const card = await screen.findByTestId("maintenance-aurora");
    expect(within(card).getByTestId("maintenance-state")).toHaveTextContent("Sin mantenimiento");
    server.answerOnce("PUT", "/admin/api/skins/aurora/maintenance", () =>
      json(422, { code: "INVALID", message: "x", requestId: "r-2", errors: [{ field: "until", code: "TIME_PAST", message: "" }] }),
    );
    await userEvent.type(within(card).getByLabelText("Fin previsto"), "02/12/2026 09:30");
    await userEvent.type(within(card).getByLabelText(/^Motivo/), "wallet migration");
    await userEvent.click(within(card).getByTestId("maintenance-set"));
    expect(await within(card).findByText("Indicá una hora que todavía no pasó.")).toBeInTheDocument();
    const [sent] = server.requests.filter((r) => r.method === "PUT").map((r) => r.body);
    expect(sent).toMatchObject({ from: null, until: Date.UTC(2026, 11, 2, 9, 30) / 1000, reason: "wallet migration" });
  });
});
