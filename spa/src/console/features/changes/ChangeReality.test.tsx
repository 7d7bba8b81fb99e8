import { screen, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";

import { renderConsole } from "../../test/render";

async function openReality(user: UserEvent) {
  const line = await screen.findByTestId("reality-aurora");
  await user.click(within(line).getByTestId("reality-open"));
  return screen.getByTestId("reality-dialog");
}

async function previewMinutes(user: UserEvent, dialog: HTMLElement, minutes: string) {
  const field = within(dialog).getByLabelText("Cada cuántos minutos de sesión");
  await user.clear(field);
  if (minutes) await user.type(field, minutes);
  await user.click(within(dialog).getByTestId("reality-preview"));
}

describe("changing a skin's reality check", () => {
  it("shows it off, previews every 60 minutes, applies with a reason and the overview says so", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    expect(await screen.findByTestId("reality-aurora")).toHaveTextContent("Control de realidad: desactivado");
    const dialog = await openReality(user);
    await previewMinutes(user, dialog, "60");

    const diff = within(await within(dialog).findByTestId("write-preview")).getByTestId("changes-diff");
    expect(diff).toHaveTextContent("Control de realidad");
    expect(diff).toHaveTextContent("desactivado");
    expect(diff).toHaveTextContent("cada 60 minutos");
    expect(within(dialog).queryByTestId("probe-report")).not.toBeInTheDocument();
    expect(server.realityMinutes).toBeNull();

    await user.type(within(dialog).getByLabelText(/Motivo/), "responsible gaming pilot");
    await user.click(within(dialog).getByTestId("write-apply"));
    expect(await within(dialog).findByTestId("live-count")).toHaveTextContent("Activa en 3/3 instancias");
    expect(server.calls("POST", "/admin/api/settings")[0]!.body).toEqual({
      skin: "aurora", setting: "reality_check_minutes", value: 60, baseVersion: "v1-aaaaaaaaaaaa", reason: "responsible gaming pilot",
    });
    await user.click(within(dialog).getByTestId("write-done"));
    expect(await screen.findByTestId("reality-value")).toHaveTextContent("cada 60 minutos");
  });

  it("refuses minutes out of bounds in the field, in the operator's language, and keeps what was typed", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    const dialog = await openReality(user);
    await previewMinutes(user, dialog, "2000");
    expect(within(dialog).getByTestId("value-error")).toHaveTextContent("De 0,25 a 1440 minutos, o vacío o 0 para desactivarlo.");
    expect(within(dialog).getByLabelText("Cada cuántos minutos de sesión")).toHaveValue("2000");
    expect(server.calls("POST", "/admin/api/settings/preview")).toHaveLength(0);

    await user.selectOptions(screen.getByTestId("language"), "en");
    expect(within(dialog).getByTestId("value-error")).toHaveTextContent("From 0.25 to 1440 minutes, or empty or 0 for off.");
  });

  it("turns it off with an empty field", async () => {
    const user = userEvent.setup();
    const { server } = renderConsole("/", "alice");
    server.realityMinutes = 30;
    expect(await screen.findByTestId("reality-value")).toHaveTextContent("cada 30 minutos");
    const dialog = await openReality(user);
    await previewMinutes(user, dialog, "");
    expect(await within(dialog).findByTestId("changes-diff")).toHaveTextContent("cada 30 minutosdesactivado");
    expect(server.calls("POST", "/admin/api/settings/preview")[0]!.body).toMatchObject({ value: null });
  });

  it("offers no change to a viewer", async () => {
    renderConsole("/", "vera");
    expect(await screen.findByTestId("reality-aurora")).toHaveTextContent("desactivado");
    expect(screen.queryByTestId("reality-open")).not.toBeInTheDocument();
  });
});
