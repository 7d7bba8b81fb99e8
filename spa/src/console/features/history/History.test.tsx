import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { FakeConsole, json } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

function withTwoChanges() {
  const server = new FakeConsole().signInAs("alice");
  server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: null, after: "https://wallet-2.example" }, "bob");
  server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: "https://wallet-2.example", after: "https://wallet-3.example" }, "carol");
  return server;
}

describe("the history", () => {
  it("lists every version with who, when, why and its diff, newest first", async () => {
    renderConsole("/history", "vera", withTwoChanges());
    const versions = await screen.findAllByTestId("history-version");
    expect(versions).toHaveLength(3);
    expect(within(versions[0]!).getByTestId("version-who")).toHaveTextContent("por carol (consola)");
    expect(versions[0]).toHaveTextContent("actual");
    expect(within(versions[0]!).getByTestId("version-reason")).toHaveTextContent("Motivo: their reason");
    expect(within(versions[0]!).getByTestId("changes-diff")).toHaveTextContent("https://wallet-2.example");
    expect(within(versions[0]!).getByTestId("changes-diff")).toHaveTextContent("https://wallet-3.example");
    expect(versions[2]).toHaveTextContent("arranque");
    expect(within(versions[2]!).getByTestId("version-who")).toHaveTextContent("por el arranque o el archivo");
  });

  it("words how a version came and a reason the API left out, in the console's language", async () => {
    const server = withTwoChanges();
    server.history[0] = { ...server.history[0]!, via: "token", reason: "NONE_GIVEN_VIA_API" };
    renderConsole("/history", "vera", server);
    const [newest] = await screen.findAllByTestId("history-version");
    expect(within(newest!).getByTestId("version-who")).toHaveTextContent("por carol (token de API)");
    expect(within(newest!).getByTestId("version-reason")).toHaveTextContent("Motivo: (no se indicó, por la API)");
    expect(newest!.querySelector("time")).toHaveTextContent(/^\d{1,2} \w+ \d{4}, \d{2}:\d{2}:\d{2} UTC$/);
  });

  it("gives a viewer no rollback", async () => {
    renderConsole("/history", "vera", withTwoChanges());
    await screen.findAllByTestId("history-version");
    expect(screen.queryByTestId("rollback-open")).not.toBeInTheDocument();
  });

  it("rolls back in one step: previewed and probed, with a reason, live on every instance", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/history", "alice", withTwoChanges());
    const versions = await screen.findAllByTestId("history-version");
    expect(within(versions[0]!).queryByTestId("rollback-open")).not.toBeInTheDocument();
    await user.click(within(versions[2]!).getByTestId("rollback-open"));

    const dialog = screen.getByTestId("rollback-dialog");
    const preview = await within(dialog).findByTestId("write-preview");
    expect(within(preview).getByTestId("changes-diff")).toHaveTextContent("https://wallet-3.example");
    expect(within(preview).getByTestId("changes-diff")).toHaveTextContent("(valor del archivo de marcas)");
    expect(within(preview).getByTestId("probe-report")).toBeInTheDocument();
    expect(server.calls("POST", "/admin/api/rollback/preview")[0]!.body).toEqual({ to: "v1-aaaaaaaaaaaa", baseVersion: server.version });

    await user.type(within(dialog).getByLabelText(/Motivo/), "the new wallets misbehave");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("Activa en 3/3 instancias");
    expect(server.overrides).toEqual({});
    await user.click(within(dialog).getByTestId("write-done"));
    expect(await screen.findAllByTestId("history-version")).toHaveLength(4);
    expect(screen.getAllByTestId("history-version")[0]).toHaveTextContent("vuelta atrás");
  });

  it("says, translated, when the version's host is no longer allowed, and rolls nothing back", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/history", "alice", withTwoChanges());
    server.answerOnce("POST", "/admin/api/rollback/preview", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r",
                  errors: [{ field: "to", code: "URL_HOST_NOT_ALLOWED", message: "https://wallet-2.example is not on a host" }] }),
    );
    const versions = await screen.findAllByTestId("history-version");
    await user.click(within(versions[1]!).getByTestId("rollback-open"));
    const dialog = screen.getByTestId("rollback-dialog");
    expect(await within(dialog).findByTestId("error-notice")).toHaveTextContent(
      "to: El despliegue no permite que los upstreams de este skin apunten a este host.",
    );
    expect(within(dialog).queryByTestId("write-preview")).not.toBeInTheDocument();
    expect(server.calls("POST", "/admin/api/rollback")).toHaveLength(0);
  });

  it("on a 409 during a rollback shows what changed meanwhile and previews again from there", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/history", "alice", withTwoChanges());
    const versions = await screen.findAllByTestId("history-version");
    await user.click(within(versions[1]!).getByTestId("rollback-open"));
    const dialog = screen.getByTestId("rollback-dialog");
    await within(dialog).findByTestId("write-preview");
    server.changeBehindTheBack({ skin: "aurora", upstream: "capi", before: null, after: "https://cms-2.example" }, "dan");
    await user.type(within(dialog).getByLabelText(/Motivo/), "back to bob's");
    await user.click(within(dialog).getByTestId("write-apply"));
    const conflict = await within(dialog).findByTestId("write-conflict");
    expect(conflict).toHaveTextContent("https://cms-2.example");
    await user.click(within(conflict).getByTestId("write-restart"));
    await within(dialog).findByTestId("write-preview");
    expect(server.calls("POST", "/admin/api/rollback/preview").at(-1)!.body.baseVersion).toBe(server.version);
  });
});

describe("the history's pages", () => {
  it("asks for older versions from the gateway's cursor", async () => {
    const user = userEvent.setup();
    const server = withTwoChanges();
    server.answerOnce("GET", "/admin/api/history", () =>
      json(200, { current: server.version, versions: server.history.slice(0, 2), next: "17-0" }),
    );
    server.answerOnce("GET", "/admin/api/history", () =>
      json(200, { current: server.version, versions: server.history.slice(2), next: null }),
    );
    renderConsole("/history", "vera", server);
    await user.click(await screen.findByTestId("history-more"));
    await waitFor(() => expect(screen.getAllByTestId("history-version")).toHaveLength(3));
    expect(server.calls("GET", "/admin/api/history").at(-1)!.query).toBe("?limit=50&before=17-0");
    expect(screen.queryByTestId("history-more")).not.toBeInTheDocument();
  });
});

describe("a version that comes back", () => {
  it("is current only as the newest entry, and the older one can still be rolled back to", async () => {
    const server = new FakeConsole();
    server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: null, after: "https://wallet-2.example" }, "bob");
    server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: "https://wallet-2.example", after: null }, "bob");
    const first = server.history[2]!;
    server.history[0] = { ...server.history[0]!, version: first.version, id: "3-0" };
    server.history[1] = { ...server.history[1]!, id: "2-0" };
    server.history[2] = { ...first, id: "1-0" };
    server.version = first.version;
    renderConsole("/history", "alice", server);
    const versions = await screen.findAllByTestId("history-version");
    expect(versions).toHaveLength(3);
    expect(within(versions[0]!).getByText("actual")).toBeInTheDocument();
    expect(within(versions[2]!).queryByText("actual")).not.toBeInTheDocument();
    expect(within(versions[2]!).getByTestId("rollback-open")).toBeInTheDocument();
  });
});
