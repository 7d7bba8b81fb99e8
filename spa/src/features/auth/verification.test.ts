import { describe, expect, it } from "vitest";

import i18n from "../../i18n";
import { verificationNotice } from "./verification";

const t = i18n.getFixedT("es", "auth");

describe("the e-mail verification popup", () => {
  it("shows nothing for INVALID_TOKEN, whatever else the reply says", () => {
    expect(verificationNotice({ success: true, code: "INVALID_TOKEN", description: "Invalid token" }, t)).toBeNull();
  });

  it("shows the code, in the player's words when the site knows it, before the reply's description", () => {
    expect(verificationNotice({ success: true, code: "ACCOUNT_VERIFIED", description: "Account verified successfully" }, t)).toEqual({
      variant: "success",
      text: "Tu correo electrónico ha sido verificado",
    });
    expect(verificationNotice({ success: false, code: "TOKEN_EXPIRED", description: "Token expired" }, t)).toEqual({
      variant: "error",
      text: "TOKEN_EXPIRED",
    });
  });

  it("uses the success variant only when success is true", () => {
    expect(verificationNotice({ code: "ALREADY_VERIFIED" }, t)).toEqual({ variant: "error", text: "Tu cuenta ya estaba verificada" });
    expect(verificationNotice({ success: true }, t)).toEqual({ variant: "success", text: "Tu correo fue verificado" });
    expect(verificationNotice({}, t)).toEqual({ variant: "error", text: "No se pudo verificar tu correo electrónico" });
  });
});
