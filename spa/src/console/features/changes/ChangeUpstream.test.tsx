import { screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { json, refusal } from "../../test/fakeConsole";
import { renderConsole } from "../../test/render";

async function openChange(user: UserEvent, upstream = "api") {
  const row = await screen.findByTestId(`upstream-aurora-${upstream}`);
  await user.click(within(row).getByTestId("change-upstream"));
  return screen.getByTestId("change-dialog");
}

/** The wallet's change previewed and given a reason: one click from applying. */
async function readyToApply() {
  const user = userEvent.setup();
  const { server } = renderConsole("/", "alice");
  const dialog = await openChange(user);
  await previewUrl(user, dialog, "https://wallet-2.example");
  await user.type(await within(dialog).findByLabelText(/Motivo/), "move the wallet");
  return { user, server, dialog };
}

async function previewUrl(user: UserEvent, dialog: HTMLElement, url: string) {
  const field = within(dialog).getByLabelText("Nueva URL base");
  await user.clear(field);
  await user.type(field, url);
  await user.click(within(dialog).getByTestId("change-preview"));
}

describe("changing an upstream", () => {
  it("previews (probe, certificate, diff), asks a reason, applies and says where it is live", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    await previewUrl(user, dialog, "https://wallet-2.example");

    const preview = await within(dialog).findByTestId("write-preview");
    expect(within(preview).getByTestId("changes-diff")).toHaveTextContent("aurora");
    expect(within(preview).getByTestId("changes-diff")).toHaveTextContent("(valor del archivo de marcas)");
    expect(within(preview).getByTestId("changes-diff")).toHaveTextContent("https://wallet-2.example");
    expect(within(preview).getByTestId("probe-report")).toHaveTextContent("Responde");
    expect(within(preview).getByTestId("probe-report")).toHaveTextContent("41 ms");
    expect(within(preview).getByTestId("tls-subject")).toHaveTextContent("CN=wallet-2.example");
    expect(within(preview).getByTestId("tls-expiry")).toHaveTextContent("(en 81 días)");
    expect(within(preview).getByTestId("contract-summary")).toHaveTextContent("Habla la plataforma: 5/5 llamadas documentadas válidas");
    expect(within(preview).queryByTestId("contract-override")).not.toBeInTheDocument();
    expect(server.overrides).toEqual({});

    await user.type(within(dialog).getByLabelText(/Motivo/), "wallet moved to the new cluster");
    await user.click(within(dialog).getByTestId("write-apply"));

    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("Activa en 3/3 instancias");
    expect(server.overrides).toEqual({ "aurora/api": "https://wallet-2.example" });
    const applied = server.calls("POST", "/admin/api/changes")[0]!;
    expect(applied.body).toEqual({ skin: "aurora", upstream: "api", url: "https://wallet-2.example", baseVersion: "v1-aaaaaaaaaaaa",
                                   reason: "wallet moved to the new cluster" });
    expect(applied.headers.get("x-csrf-token")).toBe("csrf-token-1");

    await user.click(within(dialog).getByTestId("write-done"));
    expect(await screen.findByText("https://wallet-2.example")).toBeInTheDocument();
  });

  it("names the instances that did not take the new version", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.missing = [{ id: "gw-2", host: "10.0.0.3:9100" }];
    const dialog = await openChange(user);
    await previewUrl(user, dialog, "https://wallet-2.example");
    await user.type(await within(dialog).findByLabelText(/Motivo/), "move");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("Activa en 2/3 instancias");
    expect(within(dialog).getByTestId("live-missing")).toHaveTextContent("gw-2 (10.0.0.3:9100)");
  });

  it("checks the URL before asking, and shows the gateway's field errors translated", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    await previewUrl(user, dialog, "ftp://wallet.example");
    expect(within(dialog).getByTestId("url-error")).toHaveTextContent("Use una URL http:// o https://.");
    expect(server.calls("POST", "/admin/api/changes/preview")).toHaveLength(0);

    await previewUrl(user, dialog, "https://wallet.example/?x=1");
    expect(within(dialog).getByTestId("url-error")).toHaveTextContent("pero no consulta (?) ni fragmento (#)");

    server.answerOnce("POST", "/admin/api/changes/preview", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r", errors: [{ field: "url", code: "URL_UNREACHABLE", message: "x" }] }),
    );
    await previewUrl(user, dialog, "https://nowhere.example");
    expect(await within(dialog).findByTestId("url-error")).toHaveTextContent("La URL no respondió: no se puede aplicar.");
    expect(within(dialog).getByLabelText("Nueva URL base")).toHaveValue("https://nowhere.example");
  });

  it("shows the skin's allowed hosts, and the gateway's refusal of any other in the operator's language", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    expect(within(dialog).getByTestId("allowed-hosts")).toHaveTextContent(
      "Sus upstreams solo pueden apuntar a estos hosts (los fija el despliegue, no esta consola): 127.0.0.1:8001, *.example",
    );
    server.answerOnce("POST", "/admin/api/changes/preview", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r",
                  errors: [{ field: "url", code: "URL_HOST_NOT_ALLOWED", message: "http://evil.test is not on a host" }] }),
    );
    await previewUrl(user, dialog, "http://evil.test");
    expect(await within(dialog).findByTestId("url-error")).toHaveTextContent(
      "El despliegue no permite que los upstreams de este skin apunten a este host.",
    );
    expect(within(dialog).queryByTestId("write-preview")).not.toBeInTheDocument();
    expect(server.overrides).toEqual({});
  });

  it("shows a code it does not know with the gateway's own message", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.answerOnce("POST", "/admin/api/changes/preview", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r", errors: [{ field: "skin", code: "NEW_CODE", message: "Skin is frozen" }] }),
    );
    const dialog = await openChange(user);
    await previewUrl(user, dialog, "https://wallet-2.example");
    expect(await within(dialog).findByTestId("error-notice")).toHaveTextContent("skin: Skin is frozen");
  });

  it("will not apply a URL whose probe failed, nor without a reason", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    server.answerOnce("POST", "/admin/api/changes/preview", (_request, body) =>
      json(200, { baseVersion: body.baseVersion, current: server.version, stale: false,
                  changes: [{ skin: "aurora", upstream: "api", before: null, after: "https://down.example" }],
                  probe: { url: "https://down.example", ok: false, status: null, latencyMs: null, error: "All connection attempts failed",
                           code: "REFUSED", tls: null } }),
    );
    await previewUrl(user, dialog, "https://down.example");
    const why = await within(dialog).findByTestId("probe-error");
    expect(why).toHaveTextContent("La conexión fue rechazada: nada escucha en ese puerto.");
    expect(why).toHaveAttribute("title", "All connection attempts failed");
    expect(within(dialog).getByTestId("write-unreachable")).toBeInTheDocument();
    expect(within(dialog).getByTestId("write-apply")).toBeDisabled();

    await previewUrl(user, dialog, "https://wallet-2.example");
    await within(dialog).findByTestId("tls-subject");
    await user.type(within(dialog).getByLabelText(/Motivo/), "ok");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(within(dialog).getByTestId("reason-error")).toHaveTextContent("Indique un motivo de 3 a 500 caracteres.");
    expect(server.calls("POST", "/admin/api/changes")).toHaveLength(0);
  });

  it("names the call that broke the platform's contract, and applies only with an override and its reason", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user, "capi");
    const why = "Object missing required field `url` - at `$.data[0]`";
    server.answerOnce("POST", "/admin/api/changes/preview", (_request, body) =>
      json(200, { baseVersion: body.baseVersion, current: server.version, stale: false,
                  changes: [{ skin: "aurora", upstream: "capi", before: null, after: "https://cms-2.example" }],
                  probe: { url: "https://cms-2.example", ok: true, status: 200, latencyMs: 12, error: null, tls: null },
                  checks: [{ skin: "aurora", upstream: "capi", url: "https://cms-2.example", ok: false, valid: 8, total: 9,
                             summary: `does not speak the platform: 8/9 documented calls valid; headerLinks: ${why}`,
                             calls: [{ name: "headerLinks", path: "/capi/header-links", ok: false, status: 200, why, latencyMs: 9 }] }] }),
    );
    await previewUrl(user, dialog, "https://cms-2.example");
    const report = await within(dialog).findByTestId("contract-report");
    expect(within(report).getByTestId("contract-summary")).toHaveTextContent("No habla la plataforma: 8/9 llamadas documentadas válidas");
    expect(within(report).getByTestId("contract-failures")).toHaveTextContent(`headerLinks${why}`);
    await user.type(within(dialog).getByLabelText(/Motivo/), "the new CMS");
    expect(within(dialog).getByTestId("write-apply")).toBeDisabled();

    await user.click(within(dialog).getByTestId("override-check"));
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(within(dialog).getByTestId("reason-error")).toHaveTextContent("Indique un motivo de 3 a 500 caracteres.");
    expect(server.calls("POST", "/admin/api/changes")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Por qué se aplica igualmente/), "its header links come next week");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("Activa en 3/3 instancias");
    expect(server.calls("POST", "/admin/api/changes")[0]!.body).toMatchObject({
      url: "https://cms-2.example", reason: "the new CMS", override: { reason: "its header links come next week" },
    });
  });

  it("on a 409 says who changed the skin, what and when, and starts again from the current version", async () => {
    const { user, server, dialog } = await readyToApply();
    server.changeBehindTheBack({ skin: "aurora", upstream: "api", before: null, after: "https://bobs-wallet.example" });
    await user.click(within(dialog).getByTestId("write-apply"));

    const conflict = await within(dialog).findByTestId("write-conflict");
    expect(conflict).toHaveTextContent("Alguien cambió aurora mientras usted editaba");
    expect(within(conflict).getByTestId("conflict-diff")).toHaveTextContent("https://bobs-wallet.example");
    expect(within(conflict).getByTestId("conflict-diff-who")).toHaveTextContent(
      /^bob \(consola\) cambió api de aurora a https:\/\/bobs-wallet\.example el .+ \d{2}:\d{2}:\d{2} UTC$/,
    );
    expect(server.overrides["aurora/api"]).toBe("https://bobs-wallet.example");

    await user.click(within(conflict).getByTestId("write-restart"));
    expect(within(dialog).getByLabelText("Nueva URL base")).toHaveValue("https://wallet-2.example");
    await user.click(within(dialog).getByTestId("change-preview"));
    const preview = await within(dialog).findByTestId("write-preview");
    expect(preview).toHaveTextContent("https://bobs-wallet.example");
    expect(within(dialog).getByLabelText(/Motivo/)).toHaveValue("move the wallet");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("3/3");
    expect(server.calls("POST", "/admin/api/changes").map((c) => c.body.baseVersion)).toEqual(["v1-aaaaaaaaaaaa", server.history[1]!.version]);
  });

  it("on a 409 that names no skin says the configuration changed", async () => {
    const { user, server, dialog } = await readyToApply();
    server.answerOnce("POST", "/admin/api/changes", () =>
      json(409, { code: "VERSION_CONFLICT", message: "changed", requestId: "r5", current: "v7-cccccccccccc", skins: [], changes: [] }));
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("write-conflict")).toHaveTextContent(
      "Otra persona cambió la configuración mientras usted editaba (ahora es la versión v7-cccccccc",
    );
  });

  it("shows a 403 as such: the role it needs", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    // Demoted to viewer while the dialog was open.
    server.answerOnce("POST", "/admin/api/changes/preview", () => refusal(403, "FORBIDDEN", { needs: "operator" }));
    await previewUrl(user, dialog, "https://wallet-2.example");
    const notice = await within(dialog).findByTestId("error-notice");
    expect(notice).toHaveAttribute("data-status", "403");
    expect(notice).toHaveTextContent("Su rol (operador) no permite hacer esto: hace falta el rol operador.");
    // The role is asked for again: the console then shows what the new role may do.
    await waitFor(() => expect(server.calls("GET", "/admin/api/session").length).toBeGreaterThan(1));
  });

  it("keeps the form as it was when the session ends mid-change", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openChange(user);
    await previewUrl(user, dialog, "https://wallet-2.example");
    await user.type(await within(dialog).findByLabelText(/Motivo/), "move the wallet");
    server.expired = true;
    await user.click(within(dialog).getByTestId("write-apply"));

    const signIn = await screen.findByTestId("signin-dialog");
    await user.type(within(signIn).getByLabelText("Contraseña"), "alice-pass");
    await user.click(within(signIn).getByTestId("signin-submit"));
    await screen.findByTestId("change-dialog");
    expect(screen.queryByTestId("signin-dialog")).not.toBeInTheDocument();

    const form = screen.getByTestId("change-dialog");
    expect(within(form).getByLabelText("Nueva URL base")).toHaveValue("https://wallet-2.example");
    expect(within(form).getByLabelText(/Motivo/)).toHaveValue("move the wallet");
    expect(within(form).getByTestId("write-preview")).toBeInTheDocument();
    await user.click(within(form).getByTestId("write-apply"));
    expect(await within(form).findByTestId("live-count")).toHaveTextContent("3/3");
  });

  it("can send an upstream back to the skins file's value", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.overrides["aurora/api"] = "https://wallet-2.example";
    const dialog = await openChange(user);
    await user.click(within(dialog).getByTestId("back-to-file"));
    expect(within(dialog).getByLabelText("Nueva URL base")).toBeDisabled();
    await user.click(within(dialog).getByTestId("change-preview"));
    await user.type(await within(dialog).findByLabelText(/Motivo/), "back to normal");
    await user.click(within(dialog).getByTestId("write-apply"));
    await within(dialog).findByTestId("live-count");
    expect(server.calls("POST", "/admin/api/changes")[0]!.body.url).toBeNull();
    expect(server.overrides).toEqual({});
  });
});
