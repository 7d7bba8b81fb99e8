import { fireEvent, screen } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { renderWithProviders } from "../../test/render";
import { NotFoundScreen } from "./NotFoundScreen";

describe("NotFoundScreen", () => {
  it("goes to / when the 404 image is clicked", () => {
    renderWithProviders(
      <Routes>
        <Route path="/" element={<p>start page</p>} />
        <Route path="*" element={<NotFoundScreen />} />
      </Routes>,
      { route: "/no-such-page" },
    );
    expect(screen.getByRole("heading", { name: i18n.t("notFound.title") })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("link", { name: i18n.t("notFound.imageLabel") }));

    expect(screen.getByText("start page")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: i18n.t("notFound.title") })).not.toBeInTheDocument();
  });
});
