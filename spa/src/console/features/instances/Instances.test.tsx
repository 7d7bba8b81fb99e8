import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderConsole } from "../../test/render";

describe("the instances", () => {
  it("lists every instance with its version, uptime and configuration", async () => {
    renderConsole("/instances", "vera");
    const rows = await screen.findAllByTestId("instance");
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent("gw-0");
    expect(rows[0]).toHaveTextContent("10.0.0.1:9100");
    expect(rows[0]).toHaveTextContent("0.1.0");
    expect(rows[0]).toHaveTextContent("2h 1min");
    expect(rows[0]).toHaveTextContent("sirviendo");
    expect(screen.getByText(/3 instancias vivas/)).toBeInTheDocument();
    expect(screen.queryByTestId("instances-behind")).not.toBeInTheDocument();
  });

  it("flags an instance on another configuration version", async () => {
    const { server } = renderConsole("/instances", "vera");
    server.missing = [{ id: "gw-2", host: "10.0.0.3:9100" }];
    expect(await screen.findByTestId("instances-behind")).toHaveTextContent("1 instancia ejecuta otra versión");
    const flagged = screen.getAllByTestId("instance").filter((row) => row.dataset.same === "false");
    expect(flagged).toHaveLength(1);
    expect(within(flagged[0]!).getByTestId("instance-other-version")).toHaveTextContent("otra versión");
    expect(flagged[0]).toHaveTextContent("v0-old");
  });

  it("shows each instance's last heartbeat, and names one that stopped beating", async () => {
    const { server } = renderConsole("/instances", "vera");
    server.stale = ["gw-1"];
    expect(await screen.findByTestId("instances-stale")).toHaveTextContent("1 instancia no late desde hace más de 6 s (detenida o congelada): gw-1.");
    const rows = screen.getAllByTestId("instance");
    expect(within(rows[1]!).getByTestId("instance-state")).toHaveTextContent("sin latido");
    expect(within(rows[1]!).getByTestId("instance-last-seen")).toHaveTextContent("hace 9,5 s");
    expect(within(rows[0]!).getByTestId("instance-last-seen")).toHaveTextContent("hace 1,2 s");
    expect(within(rows[0]!).getByTestId("instance-state")).toHaveTextContent("sirviendo");
  });
});
