import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { renderWithProviders } from "../../test/render";
import { CashoutPolicyScreen, TermsScreen } from "./PageScreens";

afterEach(async () => {
  await i18n.changeLanguage("es");
});

/** What the spec's terms and cashout policy hold, in each language's words. */
const TERMS = {
  es: ["Versión 1.0", "La Rioja", "Editar apuestas", "1,001", "empate", "condicional", "14 selecciones", "cada 24 horas", "límite más bajo", "09:30 GMT del 2.º día", "5.º día", "tarjeta no tienen costo", "ARS 500.000", "12 meses", "30 días", "5 años", "1 mes", "3 meses", "14 días", "3 horas", "Uso de imágenes y derechos de terceros"],
  pt: ["Versão 1.0", "La Rioja", "Editar apostas", "1,001", "empate", "condicional", "14 seleções", "a cada 24 horas", "limite mais baixo", "09:30 GMT do 2.º dia", "5.º dia", "cartão não têm tarifa", "ARS 500.000", "12 meses", "30 dias", "5 anos", "1 mês", "3 meses", "14 dias", "3 horas", "Uso de imagens e direitos de terceiros"],
  en: ["Version 1.0", "La Rioja", "Edit bets", "1.001", "tie", "conditional", "14 selections", "every 24 hours", "lowest limit", "09:30 GMT on the 2nd day", "5th day", "Card deposits carry no fee", "ARS 500,000", "12 months", "30 days", "5 years", "1 month", "3 months", "14 days", "3 hours", "Use of images and third-party rights"],
} as const;
const CASHOUT = {
  es: ["Rs 100", "misma cuenta bancaria", "2,5 %", "10.000 INR", "TDS", "nunca por teléfono", "18 años"],
  pt: ["Rs 100", "mesma conta bancária", "2,5%", "10.000 INR", "TDS", "nunca por telefone", "18 anos"],
  en: ["Rs 100", "same bank account", "2.5%", "10,000 INR", "TDS", "never by phone", "18 or over"],
} as const;

describe.each(["es", "pt", "en"] as const)("the legal pages in %s", (lng) => {
  it("the terms hold every rule and constant of the spec, the image-use section last", async () => {
    await i18n.changeLanguage(lng);
    renderWithProviders(<TermsScreen />);
    const page = screen.getByTestId("legal-terms");
    for (const fact of TERMS[lng]) expect(page, fact).toHaveTextContent(fact);
    const headings = screen.getAllByRole("heading", { level: 2 });
    expect(headings.at(-1)).toHaveTextContent(TERMS[lng].at(-1)!);
    expect(screen.getAllByRole("listitem")).toHaveLength(5);
  });

  it("the cashout policy holds its minimum, points, tax threshold and channels", async () => {
    await i18n.changeLanguage(lng);
    renderWithProviders(<CashoutPolicyScreen />);
    const page = screen.getByTestId("legal-cashout");
    for (const fact of CASHOUT[lng]) expect(page, fact).toHaveTextContent(fact);
  });
});
