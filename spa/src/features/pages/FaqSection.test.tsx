import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import i18n from "../../i18n";
import { loggedOut, skinConfig, stubBff } from "../../test/bff";
import { renderWithProviders } from "../../test/render";
import { FAQ_TOPICS, FaqSection } from "./FaqSection";

const cmsFaqs = {
  data: [
    { id: 2, topic: "withdrawals", question: "How long is a cashout?", answer: "Two days.", order: 2, status: "active", locale: "es" },
    { id: 1, topic: "deposits", question: "How do I pay in?", answer: "With a card.", order: 1, status: "active", locale: "es" },
    { id: 3, topic: "bonuses", question: "Old bonus?", answer: "Retired.", order: 3, status: "inactive", locale: "es" },
  ],
  meta: { pagination: { page: 1, pageSize: 100, pageCount: 1, total: 3 } },
};

describe("FaqSection", () => {
  const scroll = vi.fn();
  beforeEach(() => {
    scroll.mockReset();
    Element.prototype.scrollIntoView = scroll; // jsdom has no layout, nor scrollIntoView
  });

  it("shows the CMS's active questions under their topics", async () => {
    const fetchMock = stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/capi/faqs": cmsFaqs });
    renderWithProviders(<FaqSection />, { route: "/contactus#faq" });
    const deposits = await screen.findByTestId("faq-deposits");
    expect(within(deposits).getByText("How do I pay in?")).toBeInTheDocument();
    expect(within(deposits).getByText("With a card.")).toBeInTheDocument();
    expect(within(screen.getByTestId("faq-withdrawals")).getByText("Two days.")).toBeInTheDocument();
    expect(screen.queryByText("Old bonus?")).not.toBeInTheDocument();
    expect(screen.getByTestId("faq")).toHaveAttribute("data-source", "cms");
    expect(scroll).toHaveBeenCalled();
    const url = new URL((fetchMock.mock.calls.find(([r]) => (r as Request).url.includes("/capi/faqs"))![0] as Request).url);
    expect(url.searchParams.get("filters[locale][$eq]")).toBe("es");
  });

  it("falls back to the built-in answers, one per topic, when the CMS fails", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut });
    renderWithProviders(<FaqSection />);
    await waitFor(() => expect(screen.getByTestId("faq")).toHaveAttribute("data-source", "built-in"));
    expect(scroll).not.toHaveBeenCalled();
    for (const topic of FAQ_TOPICS) {
      const section = await screen.findByTestId(`faq-${topic}`);
      expect(section).toHaveTextContent(i18n.t(`pages:faq.builtIn.${topic}.answer`));
    }
  });

  it("falls back when the CMS has no questions in the language", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/capi/faqs": { data: [], meta: cmsFaqs.meta } });
    renderWithProviders(<FaqSection />);
    expect(await screen.findByText(i18n.t("pages:faq.builtIn.account.question"))).toBeInTheDocument();
  });

  it("scrolls to the answers when the address asks for #faq", async () => {
    stubBff({ "/bff/config": skinConfig, "/bff/session": loggedOut, "/capi/faqs": cmsFaqs });
    renderWithProviders(<FaqSection />, { route: "/contactus#faq" });
    await screen.findByTestId("faq-deposits");
    await waitFor(() => expect(scroll).toHaveBeenCalled());
    expect(scroll.mock.contexts[0]).toBe(screen.getByTestId("faq"));
  });
});
