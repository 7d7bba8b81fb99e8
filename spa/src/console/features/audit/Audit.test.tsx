import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { FakeConsole } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";
import { auditQuery, localToIso } from "./auditQuery";

function withEntries() {
  const server = new FakeConsole();
  server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: null, after: "https://wallet-2.example" }, "bob");
  server.audit.unshift({ id: "s1", at: new Date().toISOString(), action: "sign-in-failed", who: "mallory", via: "console",
                         address: "203.0.113.9", outcome: "refused", skin: null, target: null, reason: null, before: null,
                         after: null, detail: null });
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
    expect(localToIso("")).toBeUndefined();
    expect(localToIso("2026-11-26T10:00")).toBe(new Date("2026-11-26T10:00").toISOString());
  });
});
