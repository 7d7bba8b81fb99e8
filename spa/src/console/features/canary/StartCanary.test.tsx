import { screen, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { json } from "../../test/fakeConsole";
import { canary } from "../../test/fakeCanaries";
import { renderConsole } from "../../test/render";

/** The capi change previewed, then "Start as canary": the canary's form, defaults filled in. */
async function canaryForm(user: UserEvent) {
  const rendered = renderConsole("/", "alice");
  const row = await screen.findByTestId("upstream-aurora-capi");
  await user.click(within(row).getByTestId("change-upstream"));
  const dialog = screen.getByTestId("change-dialog");
  await user.clear(within(dialog).getByLabelText("Nueva URL base"));
  await user.type(within(dialog).getByLabelText("Nueva URL base"), "https://cms-2.example");
  await user.click(within(dialog).getByTestId("change-preview"));
  await user.click(await within(dialog).findByTestId("write-canary"));
  return { ...rendered, dialog, form: within(dialog).getByTestId("canary-start") };
}

const shares = (form: HTMLElement) => within(form).getAllByLabelText("Parte de jugadores (%)").map((input) => (input as HTMLInputElement).value);

describe("starting a change as a canary", () => {
  it("offers 1 % -> 10 % -> 50 % -> 100 % for five minutes each and the default thresholds, and sends what it shows", async () => {
    const user = userEvent.setup();
    const { server, form, dialog } = await canaryForm(user);
    expect(within(dialog).getByRole("heading", { level: 2 })).toHaveTextContent("Cambiar capi de Aurora Casino como canario");
    expect(shares(form)).toEqual(["1", "10", "50", "100"]);
    expect(within(form).getAllByLabelText("Durante (minutos)").map((input) => (input as HTMLInputElement).value)).toEqual(["5", "5", "5", "5"]);
    const thresholds = within(form).getByTestId("canary-thresholds");
    expect(thresholds).not.toHaveAttribute("open");
    expect(within(thresholds).getByLabelText("p99 más lento (ms)")).toHaveValue("500");
    expect(within(thresholds).getByText(/Por defecto 500 ms \(el de Flagger\)/)).toBeInTheDocument();

    await user.clear(within(form).getAllByLabelText("Durante (minutos)")[0]!);
    await user.type(within(form).getAllByLabelText("Durante (minutos)")[0]!, "0,5");
    await user.type(within(form).getByLabelText(/Motivo/), "the new CMS, step by step");
    await user.click(within(form).getByTestId("canary-submit"));

    const started = await within(dialog).findByTestId("canary-started");
    expect(started).toHaveTextContent("Canario iniciado: 1 % de los jugadores nuevos van al nuevo upstream.");
    expect(server.calls("POST", "/admin/api/changes")).toHaveLength(0);
    expect(server.calls("POST", "/admin/api/canaries")[0]!.body).toEqual({
      skin: "aurora", upstream: "capi", url: "https://cms-2.example", baseVersion: "v1-aaaaaaaaaaaa", reason: "the new CMS, step by step",
      steps: [{ share: 0.01, holdS: 30 }, { share: 0.1, holdS: 300 }, { share: 0.5, holdS: 300 }, { share: 1, holdS: 300 }],
      thresholds: { maxErrorShare: 0.01, maxRefusalRise: 0.05, maxP99S: 0.5, maxLoginDrop: 0.1, maxMoneyDrop: 0.02, minAnswers: 20,
                    failedChecks: 3, checkEveryS: 10 },
    });
    await user.click(within(started).getByTestId("canary-watch"));
    expect(await screen.findByRole("heading", { name: "Canario de aurora capi", level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId("canary-step-now")).toHaveTextContent("1 de 4: 1 % al nuevo upstream");
  });

  it("says which step is wrong and why, and which threshold cannot be met, before asking; nothing typed is lost", async () => {
    const user = userEvent.setup();
    const { server, form } = await canaryForm(user);
    const share = within(form).getAllByLabelText("Parte de jugadores (%)");
    await user.clear(share[2]!);
    await user.type(share[2]!, "5");
    await user.click(within(form).getAllByTestId("canary-step-remove")[3]!);
    await user.click(within(form).getByText(/^Avanzado/));
    const p99 = within(form).getByLabelText("p99 más lento (ms)");
    await user.clear(p99);
    await user.type(p99, "0");
    await user.type(within(form).getByLabelText(/Motivo/), "ok");
    await user.click(within(form).getByTestId("canary-submit"));

    const steps = within(form).getAllByTestId("canary-step");
    expect(steps[2]).toHaveTextContent("La parte de cada paso es mayor que la del anterior.");
    expect(steps).toHaveLength(3);
    expect(within(form).getByTestId("canary-thresholds")).toHaveAttribute("open");
    expect(within(form).getByTestId("threshold-maxP99S-error")).toHaveTextContent("Este umbral no se puede cumplir");
    expect(within(form).getByTestId("reason-error")).toHaveTextContent("Indique un motivo de 3 a 500 caracteres.");
    expect(server.calls("POST", "/admin/api/canaries")).toHaveLength(0);

    await user.clear(share[2]!);
    await user.type(share[2]!, "100");
    expect(within(form).getAllByTestId("canary-step")[2]).not.toHaveTextContent("mayor que la del anterior");
    expect(shares(form)).toEqual(["1", "10", "100"]);
    expect(p99).toHaveValue("0");
  });

  it("shows the gateway's refusals per field and its 409 translated", async () => {
    const user = userEvent.setup();
    const { server, form } = await canaryForm(user);
    await user.type(within(form).getByLabelText(/Motivo/), "the new CMS");
    server.answerOnce("POST", "/admin/api/canaries", () =>
      json(422, { message: "Invalid", code: "INVALID", requestId: "r", errors: [
        { field: "thresholds.minAnswers", code: "THRESHOLD_INVALID", message: "A whole number" },
        { field: "url", code: "URL_SCHEME", message: "x" },
      ] }));
    await user.click(within(form).getByTestId("canary-submit"));
    expect(await within(form).findByTestId("threshold-minAnswers-error")).toHaveTextContent("Este umbral no se puede cumplir");
    expect(within(form).getByTestId("error-notice")).toHaveTextContent("url: Use una URL http:// o https://.");

    server.canaries.list = [canary()];
    await user.click(within(form).getByTestId("canary-submit"));
    expect(await within(form).findByTestId("error-notice")).toHaveTextContent(
      "Esta skin tiene un canario en curso: promuévalo o abórtelo antes de otro canario o cambio.",
    );
    expect(within(form).getByLabelText(/Motivo/)).toHaveValue("the new CMS");
  });

  it("carries the change's override of a failed platform check, and wants its reason too", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.answerOnce("POST", "/admin/api/changes/preview", (_request, body) =>
      json(200, { baseVersion: body.baseVersion, current: server.version, stale: false,
                  changes: [{ skin: "aurora", upstream: "capi", before: null, after: "https://cms-2.example" }],
                  probe: { url: "https://cms-2.example", ok: true, status: 200, latencyMs: 12, error: null, tls: null },
                  check: { skin: "aurora", upstream: "capi", url: "https://cms-2.example", ok: false, valid: 8, total: 9,
                           summary: "8/9", calls: [] } }));
    await user.click(within(await screen.findByTestId("upstream-aurora-capi")).getByTestId("change-upstream"));
    const dialog = screen.getByTestId("change-dialog");
    await user.clear(within(dialog).getByLabelText("Nueva URL base"));
    await user.type(within(dialog).getByLabelText("Nueva URL base"), "https://cms-2.example");
    await user.click(within(dialog).getByTestId("change-preview"));
    expect(await within(dialog).findByTestId("write-canary")).toBeDisabled();
    await user.click(within(dialog).getByTestId("override-check"));
    await user.type(within(dialog).getByLabelText(/Motivo/), "the new CMS");
    await user.click(within(dialog).getByTestId("write-canary"));
    const form = within(dialog).getByTestId("canary-start");
    await user.click(within(form).getByTestId("canary-submit"));
    expect(within(form).getByTestId("error-notice")).toHaveTextContent("override.reason: Indique un motivo de 3 a 500 caracteres.");
    expect(server.calls("POST", "/admin/api/canaries")).toHaveLength(0);

    await user.click(within(form).getByTestId("canary-back"));
    await user.type(within(dialog).getByLabelText(/Por qué se aplica igualmente/), "its header links come next week");
    await user.click(within(dialog).getByTestId("write-canary"));
    await user.click(within(within(dialog).getByTestId("canary-start")).getByTestId("canary-submit"));
    await within(dialog).findByTestId("canary-started");
    expect(server.calls("POST", "/admin/api/canaries")[0]!.body).toMatchObject({
      reason: "the new CMS", override: { reason: "its header links come next week" },
    });
  });

  it("goes back to the change and its Apply, the preview kept", async () => {
    const user = userEvent.setup();
    const { dialog, form } = await canaryForm(user);
    await user.click(within(form).getByTestId("canary-back"));
    expect(within(dialog).getByTestId("write-preview")).toBeInTheDocument();
    expect(within(dialog).getByTestId("write-apply")).toBeEnabled();
  });
});
