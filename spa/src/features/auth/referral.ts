import { URL_KEYS } from "./urlAsks";

/** Sign-up attribution from a /register?ID=&type=&click_id= link, and its browser storage keys. */
export const AGENT_KEY = "agentCid";
export const AFFILIATE_KEY = "affCid";
export const CLICK_KEY = "affcheckid";

/**
 * The spec: "the default campaign code when no agent ID is present is a fixed 8-character
 * code". The code itself is not shown; this one names sign-ups that came straight to the site.
 */
export const DEFAULT_CAMPAIGN_CODE = "DIRECT01";

export type ReferralType = "agent" | "affiliate";

export interface Referral {
  id: string;
  type: ReferralType;
  clickId: string | null;
}

/** The referral a /register URL carries, or null. */
export function referralFromUrl(search: string): Referral | null {
  const params = new URLSearchParams(search);
  const id = params.get(URL_KEYS.referralId)?.trim();
  const type = params.get(URL_KEYS.referralType)?.trim().toLowerCase();
  if (!id || (type !== "agent" && type !== "affiliate")) return null;
  return { id, type, clickId: params.get(URL_KEYS.clickId)?.trim() || null };
}

export function rememberReferral(referral: Referral, storage: Storage = localStorage): void {
  storage.setItem(referral.type === "agent" ? AGENT_KEY : AFFILIATE_KEY, referral.id);
  storage.removeItem(referral.type === "agent" ? AFFILIATE_KEY : AGENT_KEY);
  if (referral.clickId) storage.setItem(CLICK_KEY, referral.clickId);
  else storage.removeItem(CLICK_KEY);
}

/** The attribution fields of the register payload. */
export function referralFields(storage: Storage = localStorage): {
  campaignCode: string;
  wmReferenceId: string;
  referralType: string;
} {
  const agent = storage.getItem(AGENT_KEY);
  const affiliate = storage.getItem(AFFILIATE_KEY);
  if (agent) return { campaignCode: agent, wmReferenceId: "", referralType: "agent" };
  if (affiliate) {
    return { campaignCode: affiliate, wmReferenceId: storage.getItem(CLICK_KEY) ?? "", referralType: "affiliate" };
  }
  return { campaignCode: DEFAULT_CAMPAIGN_CODE, wmReferenceId: "", referralType: "" };
}

/** A successful registration keeps the affiliate post-back address and a
 * just-registered flag (the names are ours: the spec names neither key). */
export const POSTBACK_KEY = "affiliatePostBackURL";
export const JUST_REGISTERED_KEY = "justRegistered";

export function rememberRegistration(postBackUrl: string | null | undefined, storage: Storage = sessionStorage): void {
  if (postBackUrl) storage.setItem(POSTBACK_KEY, postBackUrl);
  else storage.removeItem(POSTBACK_KEY);
  storage.setItem(JUST_REGISTERED_KEY, "true");
}
