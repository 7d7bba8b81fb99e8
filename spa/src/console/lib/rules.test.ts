import { describe, expect, it } from "vitest";

import { baseUrlProblem, reasonValid } from "./rules";

describe("the console's input rules", () => {
  it.each([
    ["", "REQUIRED"],
    ["   ", "REQUIRED"],
    ["wallet.example", "URL_INVALID"],
    ["ftp://wallet.example", "URL_SCHEME"],
    ["https://wallet.example/?a=1", "URL_HAS_PATH_QUERY"],
    ["https://wallet.example/#top", "URL_HAS_PATH_QUERY"],
    ["https://wallet.example/base/path", null],
    ["http://127.0.0.1:8001", null],
  ])("base URL %j -> %s", (url, code) => {
    expect(baseUrlProblem(url)).toBe(code);
  });

  it("wants a reason of 3 to 500 characters, blanks at the ends not counted", () => {
    expect(reasonValid("  ab  ")).toBe(false);
    expect(reasonValid("abc")).toBe(true);
    expect(reasonValid("x".repeat(500))).toBe(true);
    expect(reasonValid("x".repeat(501))).toBe(false);
  });
});
