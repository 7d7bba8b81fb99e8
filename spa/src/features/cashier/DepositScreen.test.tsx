import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { holdAnswers, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { DepositScreen } from "./DepositScreen";

const logo = (name: string) => `/capi/uploads/pay-${name}.svg`;
const system = (id: number, name: string, image: string | null, minAmount: number, maxAmount: number | null) => ({
  id,
  name,
  type: "deposit",
  minAmount,
  maxAmount,
  currency: "ARS",
  image,
});
const systems = {
  success: true,
  paymentSystems: [
    system(326, "India gateway", logo("card"), 100, null),
    system(328, "Paykassma", logo("wallets"), 100, 70000),
    system(300, "Perfect Money", logo("perfectmoney"), 100, 100000),
    system(329, "Transact", null, 1500, null),
  ],
};
const platform = {
  "/bff/config": skinConfig,
  "/bff/session": { loggedIn: true, login: "demo1" },
  "/api/player/getProfile": { success: true, login: "demo1", email: "demo1@example.com" },
  "/api/cashier/getPaymentSystems": systems,
  "/api/cashier/depositSystems": systems,
  "/api/cashier/getPaymentMethods": {
    success: true,
    paymentMethods: [
      { payMethod: "phone_pe", name: "PhonePe", minAmount: 300, maxAmount: 50000, image: logo("phonepe") },
      { payMethod: "ScanNPay", name: "Scan and Pay", minAmount: 300, maxAmount: 50000, image: logo("scan") },
    ],
  },
};

afterEach(() => vi.unstubAllGlobals());

describe("DepositScreen", () => {
  it("shows every method with its logo and a name a player understands, never an internal id", async () => {
    stubBff(platform);
    renderWithProviders(<DepositScreen />);
    const methods = await screen.findByRole("tablist", { name: "Métodos de depósito" });
    // The list is on screen (empty) before the payment systems answer: wait for its methods.
    const tabs = await within(methods).findAllByRole("tab");
    expect(tabs.map((tab) => tab.querySelector(".pay-method__name")?.textContent)).toEqual(["UPI y billeteras", "Tarjeta o UPI", "Transact", "Perfect Money"]);
    expect(tabs[3]!.querySelector("img")).toHaveAttribute("src", logo("perfectmoney"));
    expect(tabs[2]!.querySelector("img")).toBeNull();
    expect(tabs[2]).toHaveTextContent("Transact");
    expect(tabs[2]!.querySelector(".pay-logo--initials")).toHaveTextContent("TR");
    expect(methods).not.toHaveTextContent(/Pasarela|Gateway|300/);
    const ways = await screen.findByRole("radiogroup", { name: "Cómo pagar" });
    const phonePe = await within(ways).findByRole("radio", { name: "PhonePe" });
    expect(phonePe.querySelector("img")).toHaveAttribute("src", logo("phonepe"));
    expect(ways).not.toHaveTextContent("Pe▣");
  });

  it("offers a ladder of amounts within the pay method's limits, and a tap fills the amount", async () => {
    stubBff(platform);
    renderWithProviders(<DepositScreen />);
    const presets = await screen.findByRole("group", { name: "Montos sugeridos" });
    // The skin's own symbol once its config is in (the currency's code until then).
    await waitFor(() => {
      const amounts = within(presets).getAllByRole("button").map((b) => b.textContent);
      expect(amounts).toEqual(["$ 300,00", "$ 500,00", "$ 2.000,00", "$ 5.000,00", "$ 20.000,00", "$ 50.000,00"]);
    });
    fireEvent.click(within(presets).getByRole("button", { name: "$ 2.000,00" }));
    expect(screen.getByRole("textbox", { name: "Monto" })).toHaveValue("2000");
    expect(within(presets).getByRole("button", { name: "$ 2.000,00" })).toHaveAttribute("aria-pressed", "true");
  });

  it("tells the player to try again in 15 minutes when the perfect-money-style gateway refuses", async () => {
    stubBff({ ...platform, "/api/cashier/buy": { success: false, description: "Provider busy" } });
    vi.stubGlobal("open", vi.fn(() => null));
    renderWithProviders(<DepositScreen />);
    fireEvent.click(await screen.findByRole("tab", { name: "Perfect Money" }));
    const form = await screen.findByTestId("deposit-form-300");
    fireEvent.change(within(form).getByRole("textbox", { name: "Monto" }), { target: { value: "500" } });
    fireEvent.click(within(form).getByTestId("deposit-submit"));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Por favor, inténtalo de nuevo en 15 minutos");
    expect(form).not.toHaveTextContent("Provider busy");
  });

  it("shows any other method's refusal in the platform's words", async () => {
    stubBff({ ...platform, "/api/cashier/buy": { success: false, description: "Provider busy" } });
    vi.stubGlobal("open", vi.fn(() => null));
    renderWithProviders(<DepositScreen />);
    const form = await screen.findByTestId("deposit-form-328");
    fireEvent.change(within(form).getByRole("textbox", { name: "Monto" }), { target: { value: "500" } });
    fireEvent.click(within(form).getByTestId("deposit-submit"));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Provider busy");
  });

  it("lists the methods from getPaymentSystems?pgid and asks depositSystems?pgid={id} for the chosen one", async () => {
    const fetchMock = stubBff(platform);
    renderWithProviders(<DepositScreen />);
    await screen.findByTestId("deposit-form-328");
    fireEvent.click(await screen.findByRole("tab", { name: "Perfect Money" }));
    await screen.findByTestId("deposit-form-300");
    const asked = fetchMock.mock.calls.map(([request]) => new URL((request as Request).url)).filter((url) => url.pathname.startsWith("/api/cashier/"));
    const query = (path: string) => asked.filter((url) => url.pathname === path).map((url) => url.searchParams.get("pgid"));
    expect(query("/api/cashier/getPaymentSystems")).toEqual([""]);
    expect(query("/api/cashier/depositSystems")).toEqual(["328", "300"]);
  });

  it("shows the pending popup once the provider says the deposit has started", async () => {
    stubBff({
      ...platform,
      "/api/cashier/buy": { success: true, seque_no: "SEQ-1", result: { redirectUrl: "/pay/SEQ-1" } },
      "/api/cashier/depositCallBackStatus": { status: "Started", comments: null },
    });
    vi.stubGlobal("open", vi.fn(() => null));
    renderWithProviders(<DepositScreen />);
    const form = await screen.findByTestId("deposit-form-328");
    fireEvent.change(within(form).getByRole("textbox", { name: "Monto" }), { target: { value: "500" } });
    fireEvent.click(within(form).getByTestId("deposit-submit"));
    const popup = await screen.findByRole("dialog", { name: "Estado del depósito: Pendiente" }, { timeout: 3000 });
    expect(popup).toHaveTextContent("Lo revisamos cada 10 segundos");
    fireEvent.click(within(popup).getByRole("button", { name: "Aceptar" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByTestId("deposit-following")).toHaveTextContent("Estado del depósito: Pendiente");
  });

  it("clears the last method's limits while the chosen method's own are on their way", async () => {
    const fetchMock = stubBff(platform);
    // depositSystems answers every system; Perfect Money's own answer (pgid 300, in another currency) waits until released.
    const release = holdAnswers(
      fetchMock,
      (url) => url.pathname === "/api/cashier/depositSystems" && url.searchParams.get("pgid") === "300",
      () => Response.json({ success: true, paymentSystems: [{ ...system(300, "Perfect Money", null, 100, 100000), currency: "VES" }] }),
    );
    renderWithProviders(<DepositScreen />);
    await screen.findByTestId("deposit-form-328");
    fireEvent.click(await screen.findByRole("tab", { name: "Perfect Money" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Cargando…");
    expect(screen.queryByTestId("deposit-form-300")).toBeNull();
    expect(screen.queryByTestId("deposit-form-328")).toBeNull();
    act(() => release());
    const form = await screen.findByTestId("deposit-form-300");
    expect(form).toHaveTextContent("Mínimo VES 100,00, máximo VES 100.000,00");
    expect(screen.queryByRole("status")).toBeNull();
  });
});
