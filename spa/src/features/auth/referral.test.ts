import { describe, expect, it } from "vitest";

import { DEFAULT_CAMPAIGN_CODE, referralFields, referralFromUrl, rememberReferral } from "./referral";

describe("sign-up attribution", () => {
  it("reads ID, type and click_id from a /register link", () => {
    expect(referralFromUrl("?ID=AFF123&type=affiliate&click_id=c-9")).toEqual({ id: "AFF123", type: "affiliate", clickId: "c-9" });
    expect(referralFromUrl("?ID=AG7&type=agent")).toEqual({ id: "AG7", type: "agent", clickId: null });
    expect(referralFromUrl("?ID=X&type=boss")).toBeNull();
    expect(referralFromUrl("?type=agent")).toBeNull();
  });

  it("fills the register payload from what was recorded", () => {
    expect(referralFields(localStorage)).toEqual({ campaignCode: DEFAULT_CAMPAIGN_CODE, wmReferenceId: "", referralType: "" });
    rememberReferral({ id: "AFF123", type: "affiliate", clickId: "c-9" });
    expect(localStorage.getItem("affCid")).toBe("AFF123");
    expect(referralFields(localStorage)).toEqual({ campaignCode: "AFF123", wmReferenceId: "c-9", referralType: "affiliate" });
    rememberReferral({ id: "AG7", type: "agent", clickId: null });
    expect(localStorage.getItem("affCid")).toBeNull();
    expect(referralFields(localStorage)).toEqual({ campaignCode: "AG7", wmReferenceId: "", referralType: "agent" });
    expect(DEFAULT_CAMPAIGN_CODE).toHaveLength(8);
  });
});
