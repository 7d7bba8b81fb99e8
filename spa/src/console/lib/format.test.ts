import { describe, expect, it } from "vitest";

import { clock, formats } from "./format";

describe("the console's times", () => {
  const at = "2026-12-02T14:02:11Z";

  it("are 24-hour, in UTC and labelled so, in the console's language whatever the browser's", () => {
    expect(formats("en").dateTime(at)).toBe("Dec 2, 2026, 14:02:11 UTC");
    expect(formats("es").dateTime(at)).toBe("2 dic 2026, 14:02:11 UTC");
    expect(formats("pt").dateTime(at)).toBe("2 de dez. de 2026, 14:02:11 UTC");
    expect(formats("en").dateTime("2026-12-02T00:05:00Z")).toBe("Dec 2, 2026, 00:05:00 UTC");
  });

  it("give a chart's axis the same clock", () => {
    expect(clock("en").format(Date.parse("2026-12-02T00:05:00Z"))).toBe("00:05");
    expect(clock("pt").format(Date.parse(at))).toBe("14:02");
  });

  it("show a dash for nothing", () => {
    expect(formats("en").dateTime(null)).toBe("–");
  });
});
