import { describe, expect, it } from "vitest";

import { checkField } from "../../forms/rules";
import { CUIT_PREFIXES, exceedsCash, formFor, WITHDRAW_FORMS } from "./withdrawForms";

describe("withdrawal forms", () => {
  it("shows form A for paykassma, the method's own form where it has one, else form B", () => {
    expect(formFor("paykassma").id).toBe("formA");
    expect(formFor("Bank").id).toBe("bank");
    expect(formFor("imps").id).toBe("imps");
    expect(formFor("transact").id).toBe("transact");
    expect(formFor("mercado").id).toBe("formB");
    expect(formFor("anything").id).toBe("formB");
  });

  it("refuses an amount over the cash from 25 up", () => {
    expect(exceedsCash("3000", 2000)).toBe(true);
    expect(exceedsCash("24", 0)).toBe(false);
    expect(exceedsCash("2000", 2000)).toBe(false);
    expect(exceedsCash("", 100)).toBe(false);
  });

  it("posts form B with the platform's field names and the UPI id of form A in upper case", () => {
    const b = WITHDRAW_FORMS.formB.body({ name: " Ana ", alias: "ana.mp", cbu: "0000003100012345678901", phone: "1155550000", amount: "3500", cuitPrefix: "27", cuit: "123456789" }, "mercado");
    expect(b).toEqual({ firstName: "Ana", alias: "ana.mp", cbu: "0000003100012345678901", mobileNumber: "1155550000", amount: 3500, cuitPrefix: "27", cuit: "123456789" });
    expect(WITHDRAW_FORMS.formA.body({ amount: "1500", accountType: "Paytm", personalNumber: "ana@upi" }, "paykassma")).toMatchObject({ personalNumber: "ANA@UPI", amount: 1500 });
  });

  it("checks form B's CUIT when given: nine digits after a known prefix", () => {
    const { cuit, cuitPrefix } = WITHDRAW_FORMS.formB.rules;
    expect(checkField(cuit!, "")).toBeNull();
    expect(checkField(cuit!, "12345678")).toBe("CUIT must be 9 digits");
    expect(checkField(cuit!, "1234567890")).toBe("CUIT must be 9 digits");
    expect(checkField(cuit!, "12345678A")).toBe("CUIT must be 9 digits");
    expect(checkField(cuit!, "123456789")).toBeNull();
    expect(CUIT_PREFIXES).toEqual(["20", "23", "24", "27", "30", "33", "34"]);
    expect(checkField(cuitPrefix!, "99")).toBe("Please select CUIT prefix");
  });

  it("sends the CUIT prefix only with a CUIT", () => {
    const body = WITHDRAW_FORMS.formB.body({ name: "Ana", alias: "ana.mp", cbu: "0000003100012345678901", phone: "1155550000", amount: "3500", cuitPrefix: "20", cuit: "" }, "mercado");
    expect(body).toMatchObject({ cuitPrefix: null, cuit: null });
  });
});
