/** The query keys a URL asks something of the site with, on arrival: a referral (`referral.ts`),
 * an e-mail verification and a session handed over (`AuthUrlEffects`). Those read them by these
 * names, so the layout's check below cannot miss one they answer. */
export const URL_KEYS = {
  referralId: "ID",
  referralType: "type",
  clickId: "click_id",
  verification: "token",
  session: "sid",
  walletSession: "wsession",
} as const;

/** Whether an address asks the site for something on arrival: the layout loads the effects that
 * answer it only then (most pages' addresses ask nothing). `/register` opens the registration
 * popup. */
export function urlAsks(pathname: string, search: string): boolean {
  if (pathname === "/register") return true;
  const params = new URLSearchParams(search);
  return Object.values(URL_KEYS).some((key) => params.has(key));
}
