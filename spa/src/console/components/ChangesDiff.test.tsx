import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { ChangesDiff } from "./ChangesDiff";

const realityCheck = { skin: "aurora", upstream: "features.reality_check_minutes", before: "off", after: "60" };
const wallet = { skin: "aurora", upstream: "api", before: null, after: "https://wallet-2.example" };

function header() {
  return within(screen.getByTestId("changes-diff")).getAllByRole("columnheader").map((cell) => cell.textContent);
}

describe("a configuration version's changes", () => {
  it("heads a setting's row as a setting and says its values in words", () => {
    render(<ChangesDiff changes={[realityCheck]} />);
    expect(header()).toEqual(["Marca", "Ajuste", "Antes", "Después"]);
    const [row] = within(screen.getByTestId("changes-diff")).getAllByRole("row").slice(1);
    expect(row).toHaveTextContent("auroraControl de realidaddesactivadocada 60 minutos");
  });

  it("heads upstreams as upstreams, and both together as either", () => {
    const { unmount } = render(<ChangesDiff changes={[wallet]} />);
    expect(header()[1]).toBe("Upstream");
    unmount();
    render(<ChangesDiff changes={[wallet, realityCheck]} />);
    expect(header()[1]).toBe("Upstream o ajuste");
  });

  it("says who changed a setting in words, without the gateway's key", () => {
    const blamed = { ...realityCheck, who: "bob", via: "console", at: "2026-12-02T14:02:11Z" };
    render(<ChangesDiff changes={[blamed]} />);
    const said = screen.getByTestId("changes-diff-who");
    expect(said).toHaveTextContent("bob (consola) cambió Control de realidad de aurora a cada 60 minutos");
    expect(said).not.toHaveTextContent("features.");
  });
});
