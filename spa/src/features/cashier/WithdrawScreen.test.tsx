import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { api } from "../../api/baseApi";
import { NoticeHost } from "../../components/NoticeHost";
import { holdAnswers, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { FORM_B_ERROR_MS, FORM_B_SUCCESS_MS } from "./components/WithdrawPanel";
import { WithdrawScreen } from "./WithdrawScreen";

afterEach(() => vi.useRealTimers());

function render(overrides: Record<string, unknown> = {}) {
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
    ...overrides,
  });
  const { store } = renderWithProviders(
    <>
      <WithdrawScreen />
      <NoticeHost />
    </>,
  );
  return Object.assign(fetchMock, { store });
}

const FORM_B = { name: "Lucia", cbu: "0110599520000001234567", alias: "lucia.mp", phone: "1123456789", amount: "3500" };

/** Form B filled and sent; the popup that answers it. */
async function sendFormB() {
  const form = await screen.findByTestId("withdraw-form-formB");
  for (const [name, value] of Object.entries(FORM_B)) fill(form, name, value);
  fireEvent.click(within(form).getByTestId("withdraw-submit"));
  return screen.findByTestId("notice-popup");
}

/** The popup is still there just before `ms` and gone at `ms`. */
function hidesAfter(ms: number) {
  act(() => void vi.advanceTimersByTime(ms - 100));
  expect(screen.getByTestId("notice-popup")).toBeInTheDocument();
  act(() => void vi.advanceTimersByTime(200));
  expect(screen.queryByTestId("notice-popup")).toBeNull();
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

  it("hides its success popup after 5 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render();
    expect(await sendFormB()).toHaveTextContent("Retiro exitoso");
    hidesAfter(FORM_B_SUCCESS_MS);
  });

  it("shows result.errorMsg of a refused withdrawal and hides it after 6 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render({
      "/api/cashier/mercadoCashout": { success: false, description: "Withdrawal refused", result: { success: false, errorMsg: "CBU does not belong to the account holder" } },
    });
    const popup = await sendFormB();
    expect(popup).toHaveTextContent("CBU does not belong to the account holder");
    expect(screen.getByTestId("withdraw-form-formB")).toHaveTextContent("CBU does not belong to the account holder");
    hidesAfter(FORM_B_ERROR_MS);
  });
});

describe("WithdrawScreen, open requests", () => {
  it("reloads the bank account list after a withdrawal is cancelled", async () => {
    const fetchMock = render({
      "/api/cashier/getOpenWithdrawRequests": {
        success: true,
        withdrawsResponses: [{ status: "Pending", amount: 3500, currency: "ARS", creationDate: "2026-11-25T10:00:00Z", refTxnID: "CO-1", displayRefTxnID: "WD-1" }],
      },
      "/api/cashier/cancelWithdrawRequest": { success: true, description: "Withdrawal cancelled" },
      "/api/cashier/getBankAccounts": { success: true, bankAccountInfos: [] },
    });
    // The bank account list as the profile keeps it: a query providing BankAccounts.
    const bankAccounts = api.injectEndpoints({
      endpoints: (build) => ({
        bankAccountsProbe: build.query<unknown, void>({ query: () => ({ url: "/api/cashier/getBankAccounts", method: "POST", body: {} }), providesTags: ["BankAccounts"] }),
      }),
    });
    const subscription = fetchMock.store.dispatch(bankAccounts.endpoints.bankAccountsProbe.initiate());
    const loads = () => fetchMock.mock.calls.filter(([r]) => new URL((r as Request).url).pathname === "/api/cashier/getBankAccounts").length;
    await waitFor(() => expect(loads()).toBe(1));
    expect(await screen.findByText("Pendiente")).toBeInTheDocument(); // the platform's "Pending", in Spanish
    fireEvent.click(await screen.findByTestId("withdraw-cancel"));
    await waitFor(() => expect(loads()).toBe(2));
    subscription.unsubscribe();
  });
});

describe("WithdrawScreen, form A", () => {
  it("asks the UPI type for a UPI ID, id@handle", async () => {
    render({
      "/api/cashier/getPaymentSystems": { success: true, paymentSystems: [{ id: 1, name: "paykassma", type: "withdraw", minAmount: 1000, maxAmount: 30000, currency: "INR" }] },
      "/api/cashier/getCashOutInfo": { success: true, pgid: 1, form: "withdrawFormA", minAmount: 1000, maxAmount: 30000, cashBalance: 5000 },
    });
    const form = await screen.findByTestId("withdraw-form-formA");
    fill(form, "personalNumber", "demoplayer");
    expect(within(form).queryByText("Ingresa un ID UPI válido")).toBeNull();
    fireEvent.change(within(form).getByRole("combobox"), { target: { value: "UPI" } });
    expect(await within(form).findByText("Ingresa un ID UPI válido")).toBeInTheDocument();
    fill(form, "personalNumber", "demo.player@okaxis");
    expect(within(form).queryByText("Ingresa un ID UPI válido")).toBeNull();
  });
});

describe("WithdrawScreen, another method", () => {
  it("clears the last method's cash and limits while the chosen one's are on their way", async () => {
    const fetchMock = render({
      "/api/cashier/getPaymentSystems": {
        success: true,
        paymentSystems: [
          { id: 5, name: "mercado", type: "withdraw", minAmount: 3000, maxAmount: 200000, currency: "ARS" },
          { id: 1, name: "paykassma", type: "withdraw", minAmount: 1000, maxAmount: 30000, currency: "ARS" },
        ],
      },
    });
    // getCashOutInfo answers per pgid; paykassma's (pgid 1) waits until released.
    const release = holdAnswers(
      fetchMock,
      (url) => url.pathname === "/api/cashier/getCashOutInfo" && url.searchParams.get("pgid") === "1",
      () => Response.json({ success: true, pgid: 1, form: "withdrawFormA", minAmount: 1000, maxAmount: 30000, cashBalance: 1200 }),
    );
    expect(await screen.findByTestId("withdraw-cash")).toHaveTextContent("80.000,00");
    fireEvent.click(screen.getByTestId("withdraw-method-paykassma"));
    expect(await screen.findByRole("status")).toHaveTextContent("Cargando…");
    expect(screen.queryByTestId("withdraw-cash")).toBeNull();
    expect(screen.queryByText(/80\.000,00/)).toBeNull();
    act(() => release());
    expect(await screen.findByTestId("withdraw-form-formA")).toBeInTheDocument();
    expect(screen.getByTestId("withdraw-cash")).toHaveTextContent("1.200,00");
    expect(screen.queryByRole("status")).toBeNull();
  });
});
