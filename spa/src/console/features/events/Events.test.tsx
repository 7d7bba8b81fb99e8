import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { FakeConsole } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

const NOW = Date.now();
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

function withOutage(server: FakeConsole) {
  server.events = [
    { id: "3-0", kind: "upstream.back", at: ago(10), by: "gw-1", skin: "aurora", upstream: "capi", instance: null, since: ago(70), detail: null },
    { id: "2-0", kind: "instance.stale", at: ago(50), by: "gw-0", skin: null, upstream: null, instance: "gw-2", since: null, detail: null },
    { id: "1-0", kind: "upstream.down", at: ago(70), by: "gw-0", skin: "aurora", upstream: "capi", instance: null, since: null,
      detail: "getCountries: refused" },
  ];
  return server;
}

describe("the events timeline", () => {
  it("lists what happened, newest first, an outage's back entry with when it went down", async () => {
    renderConsole("/events", "vera", withOutage(new FakeConsole()));
    const rows = await screen.findAllByTestId("event");
    expect(rows.map((row) => row.dataset.kind)).toEqual(["upstream.back", "instance.stale", "upstream.down"]);
    expect(rows[0]).toHaveTextContent(/aurora: capi de vuelta; caído desde .+, de vuelta a las .+/);
    expect(rows[2]).toHaveTextContent("aurora: capi caído (getCountries: refused)");
    expect(rows[1]).toHaveTextContent("La instancia gw-2 dejó de latir");
    expect(screen.getByText(/Guardados en Redis/)).toBeInTheDocument();
  });

  it("filters by skin through the URL, and opens at a chart's hour", async () => {
    const { server } = renderConsole(`/events?skin=aurora&since=${Math.floor(NOW / 1000) - 60}`, "vera", withOutage(new FakeConsole()));
    const rows = await screen.findAllByTestId("event");
    expect(rows.map((row) => row.dataset.kind)).toEqual(["upstream.back"]);
    const asked = server.requests.find((r) => r.path === "/admin/api/events");
    expect(asked?.query).toContain("skin=aurora");
    expect(screen.getByLabelText("Marca")).toHaveValue("aurora");
  });

  it("says a malformed skin is wrong beside the field, and keeps what was typed", async () => {
    renderConsole("/events", "vera", withOutage(new FakeConsole()));
    await screen.findAllByTestId("event");
    const form = screen.getByTestId("events-filters");
    fireEvent.change(within(form).getByLabelText("Marca"), { target: { value: "Aurora!" } });
    fireEvent.click(within(form).getByTestId("events-filter"));
    expect(await screen.findByTestId("skin-error")).toHaveTextContent("No existe esa marca.");
    expect(screen.getByLabelText("Marca")).toHaveValue("Aurora!");
  });

  it("says a time in the URL that is not one beside its field", async () => {
    renderConsole("/events?since=yesterday", "vera");
    expect(await screen.findByTestId("since-error")).toHaveTextContent("No es una fecha y hora válida.");
  });

  it("reads a time typed day first in Spanish as UTC, shows the URL's back so, and names one it cannot read", async () => {
    const { server } = renderConsole(`/events?since=${Date.UTC(2026, 3, 3, 10, 30) / 1000}`, "vera", withOutage(new FakeConsole()));
    await screen.findAllByTestId("event");
    const form = screen.getByTestId("events-filters");
    expect(within(form).getByLabelText("Desde")).toHaveValue("03/04/2026, 10:30");
    fireEvent.change(within(form).getByLabelText("Hasta"), { target: { value: "31/02/2026" } });
    fireEvent.click(within(form).getByTestId("events-filter"));
    expect(await screen.findByTestId("until-error")).toHaveTextContent("Escribe la fecha y la hora como 26/11/2026, 09:05");
    fireEvent.change(within(form).getByLabelText("Hasta"), { target: { value: "04/04/2026 08:00" } });
    fireEvent.click(within(form).getByTestId("events-filter"));
    const until = String(Date.UTC(2026, 3, 4, 8, 0) / 1000);
    await waitFor(() => expect(server.requests.some((r) => r.path === "/admin/api/events" && r.query.includes(`until=${until}`))).toBe(true));
  });

  it("says when nothing happened", async () => {
    renderConsole("/events", "vera");
    expect(await screen.findByTestId("events-none")).toHaveTextContent("Ningún evento en ese intervalo.");
  });

  it("is linked from the top bar and from each skin's charts", async () => {
    renderConsole("/", "vera");
    await waitFor(() => expect(screen.getByTestId("nav-events")).toHaveAttribute("href", "/admin/events"));
    const link = await screen.findByTestId("events-aurora");
    expect(link.getAttribute("href")).toMatch(/^\/admin\/events\?skin=aurora&since=\d+$/);
  });
});
