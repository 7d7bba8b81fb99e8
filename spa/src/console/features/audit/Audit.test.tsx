import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { FakeConsole } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";
import { auditQuery } from "./auditQuery";
import { timeExample, typedTimeToIso } from "../../lib/typedTime";

function withEntries() {
  const server = new FakeConsole();
  server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: null, after: "https://wallet-2.example" }, "bob");
  server.audit.unshift({ id: "s1", at: new Date().toISOString(), action: "sign-in-failed", who: "mallory", via: "console",
                         address: "203.0.113.9", outcome: "refused", skin: null, target: null, reason: null, before: null,
                         after: null, detail: null, prev: null, hash: null });
  return server;
}

describe("the audit trail", () => {
  it("shows an operator the changes, without addresses or downloads", async () => {
    renderConsole("/audit", "alice", withEntries());
    const rows = await screen.findAllByTestId("audit-entry");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveAttribute("data-action", "change");
    expect(rows[0]).toHaveTextContent("bob");
    expect(rows[0]).toHaveTextContent("their reason");
    expect(rows[0]).toHaveTextContent("https://wallet-2.example");
    expect(screen.queryByText("Dirección")).not.toBeInTheDocument();
    expect(screen.queryByTestId("audit-export-csv")).not.toBeInTheDocument();
    const actions = within(screen.getByTestId("audit-filters")).getByLabelText("Acción");
    expect(within(actions).queryByText("inicio fallido")).not.toBeInTheDocument();
  });

  it("names a setting it changed in words, not by the gateway's key", async () => {
    const server = new FakeConsole();
    server.changeBehindTheBack({ skin: "aurora", upstream: "features.reality_check_minutes", before: "off", after: "60" }, "bob");
    renderConsole("/audit", "alice", server);
    const [row] = await screen.findAllByTestId("audit-entry");
    expect(row).toHaveTextContent("aurora / Control de realidad");
    expect(row).not.toHaveTextContent("features.");
  });

  it("shows an admin everything, with addresses, and downloads with the filters", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/audit", "ada", withEntries());
    const rows = await screen.findAllByTestId("audit-entry");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("203.0.113.9");
    expect(rows[0]).toHaveTextContent("inicio fallido");
    expect(rows[0]).toHaveTextContent("rechazado");
    expect(screen.getByTestId("audit-export-csv")).toHaveAttribute("href", "/admin/api/audit/export?format=csv");

    const filters = screen.getByTestId("audit-filters");
    await user.selectOptions(within(filters).getByLabelText("Acción"), "sign-in-failed");
    await user.type(within(filters).getByLabelText("Quién"), "mallory");
    await user.click(within(filters).getByTestId("audit-filter"));
    await waitFor(() => expect(screen.getAllByTestId("audit-entry")).toHaveLength(1));
    expect(screen.getByTestId("audit-entry")).toHaveTextContent("mallory");
    expect(server.calls("GET", "/admin/api/audit").at(-1)!.query).toBe("?action=sign-in-failed&who=mallory&limit=100");
    expect(screen.getByTestId("audit-export-json")).toHaveAttribute(
      "href", "/admin/api/audit/export?action=sign-in-failed&who=mallory&format=json",
    );
  });

  it("builds the query from the filters, leaving empty ones out", () => {
    expect(auditQuery({ action: "change", who: " ", skin: "aurora" }, { limit: "100", before: null })).toBe(
      "action=change&skin=aurora&limit=100",
    );
  });

  it("reads the date filters in the console's language, not the browser's", () => {
    expect(timeExample("es")).toBe("26/11/2026, 09:05");
    expect(timeExample("en")).toBe("11/26/2026, 09:05");
    expect(typedTimeToIso("", "es")).toBeUndefined();
    expect(typedTimeToIso("03/04/2026 10:30", "es")).toBe("2026-04-03T10:30:00.000Z");
    expect(typedTimeToIso("03/04/2026 10:30", "pt")).toBe("2026-04-03T10:30:00.000Z");
    expect(typedTimeToIso("03/04/2026", "en")).toBe("2026-03-04T00:00:00.000Z");
    expect(typedTimeToIso("31/02/2026", "es")).toBeNull();
    expect(typedTimeToIso("yesterday", "en")).toBeNull();
  });

  it("sends a time typed day first in Spanish, and names a time it cannot read beside its field", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/audit", "ada", withEntries());
    await screen.findAllByTestId("audit-entry");
    const filters = screen.getByTestId("audit-filters");
    const since = within(filters).getByLabelText("Desde");
    expect(since).toHaveAttribute("placeholder", "26/11/2026, 09:05");
    await user.type(since, "31/02/2026");
    await user.click(within(filters).getByTestId("audit-filter"));
    expect(await screen.findByTestId("since-error")).toHaveTextContent("Escribe la fecha y la hora como 26/11/2026, 09:05");
    const asked = server.calls("GET", "/admin/api/audit").length;
    await user.clear(since);
    await user.type(since, "03/04/2026 10:30");
    await user.click(within(filters).getByTestId("audit-filter"));
    await waitFor(() => expect(server.calls("GET", "/admin/api/audit").length).toBeGreaterThan(asked));
    const query = new URLSearchParams(server.calls("GET", "/admin/api/audit").at(-1)!.query);
    expect(query.get("since")).toBe("2026-04-03T10:30:00.000Z");
    expect(screen.queryByTestId("since-error")).not.toBeInTheDocument();
  });

  it("says up to which entry the trail is verified", async () => {
    const server = withEntries();
    server.verdict = { intact: true, checked: 2, first: "1796194892841-0", last: "1796194893305-0",
                       lastAt: "2026-12-02T07:01:33.305Z", trimmed: false, broken: null };
    renderConsole("/audit", "vera", server);
    const line = await screen.findByTestId("trail-verified");
    expect(line).toHaveTextContent("Auditoría verificada hasta");
    expect(line).toHaveTextContent("(1796194893305-0)");
    expect(line).toHaveTextContent("2 entradas");
  });

  it("shows in red where the trail was altered, and why", async () => {
    const server = withEntries();
    server.verdict = { intact: false, checked: 1, first: "1796194892841-0", last: "1796194892841-0", lastAt: null,
                       trimmed: false, broken: { problem: "altered", at: "1796194893305-0", line: 2, message: "edited" } };
    renderConsole("/audit", "ada", server);
    const line = await screen.findByRole("alert");
    expect(line).toHaveAttribute("data-testid", "trail-altered");
    expect(line).toHaveTextContent("Auditoría alterada en");
    expect(line).toHaveTextContent("(1796194893305-0), línea 2: la entrada fue editada");
  });

  it("finds entries by a part of a name, whatever its case", async () => {
    const user = userEvent.setup();
    renderConsole("/audit", "ada", withEntries());
    await screen.findAllByTestId("audit-entry");
    const filters = screen.getByTestId("audit-filters");
    await user.type(within(filters).getByLabelText("Quién"), "MALL");
    await user.click(within(filters).getByTestId("audit-filter"));
    await waitFor(() => expect(screen.getAllByTestId("audit-entry")).toHaveLength(1));
    expect(screen.getByTestId("audit-entry")).toHaveAttribute("data-who", "mallory");
  });
});
