/** The query keys a URL can ask something of the site with, on arrival (features/auth/AuthUrlEffects:
 * a referral, an e-mail verification, a session handed over). */
const ASKING_KEYS = ["ID", "type", "click_id", "token", "sid", "wsession"];

/** Whether an address asks the site for something on arrival: the layout loads the effects that
 * answer it only then (most pages' addresses ask nothing). `/register` opens the registration
 * popup. */
export function urlAsks(pathname: string, search: string): boolean {
  if (pathname === "/register") return true;
  const params = new URLSearchParams(search);
  return ASKING_KEYS.some((key) => params.has(key));
}
