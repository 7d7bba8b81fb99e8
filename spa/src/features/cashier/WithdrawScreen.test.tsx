import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { WithdrawScreen } from "./WithdrawScreen";

function render() {
  const fetchMock = stubBff({
    "/bff/config": skinConfig,
    "/bff/session": { loggedIn: true, login: "pampa1" },
    "/api/cashier/getPaymentSystems": {
      success: true,
      paymentSystems: [{ id: 5, name: "mercado", type: "withdraw", minAmount: 3000, maxAmount: 200000, currency: "ARS" }],
    },
    "/api/cashier/getCashOutInfo": { success: true, pgid: 5, form: "withdrawFormB", minAmount: 3000, maxAmount: 200000, cashBalance: 80000 },
    "/api/cashier/getOpenWithdrawRequests": { success: true, withdrawsResponses: [] },
    "/api/cashier/mercadoCashout": { success: true, description: "Withdrawal Succesfull", result: { success: true } },
  });
  renderWithProviders(<WithdrawScreen />);
  return fetchMock;
}

function fill(form: HTMLElement, name: string, value: string) {
  const input = form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe("WithdrawScreen, form B", () => {
  it("keeps the CUIT prefix beside the CUIT, after the phone and before the amount", async () => {
    render();
    const form = await screen.findByTestId("withdraw-form-formB");
    const cuit = within(form).getByRole("textbox", { name: "CUIT" });
    const prefix = within(form).getByRole("combobox", { name: "Prefijo CUIT" });
    expect(cuit.closest(".field")).toBe(prefix.closest(".field"));
    const order = [...form.querySelectorAll("input[name], select")].map((el) => el.getAttribute("name") ?? "prefix");
    expect(order).toEqual(["name", "cbu", "alias", "phone", "prefix", "cuit", "amount"]);
    expect(form.querySelector("[name=amount]")!.closest(".field")!.nextElementSibling).toHaveAttribute("data-testid", "withdraw-balance-note");
  });

  it("refuses a CUIT that is not nine digits, with its message, and posts a valid one with its prefix", async () => {
    const fetchMock = render();
    const form = await screen.findByTestId("withdraw-form-formB");
    for (const [name, value] of Object.entries({ name: "Lucia", cbu: "0110599520000001234567", alias: "lucia.mp", phone: "1123456789", amount: "3500" })) fill(form, name, value);
    fill(form, "cuit", "12345678");
    expect(await within(form).findByText("El CUIT debe tener 9 dígitos (sin el prefijo)")).toBeInTheDocument();
    expect(within(form).getByTestId("withdraw-submit")).toBeDisabled();
    fireEvent.change(within(form).getByRole("combobox", { name: "Prefijo CUIT" }), { target: { value: "27" } });
    fill(form, "cuit", "123456789");
    expect(within(form).queryByText("El CUIT debe tener 9 dígitos (sin el prefijo)")).toBeNull();
    fireEvent.click(within(form).getByTestId("withdraw-submit"));
    await waitFor(async () => {
      const call = fetchMock.mock.calls.find(([r]) => new URL((r as Request).url).pathname === "/api/cashier/mercadoCashout");
      expect(await (call![0] as Request).clone().json()).toMatchObject({ cuitPrefix: "27", cuit: "123456789", amount: 3500 });
    });
  });
});
