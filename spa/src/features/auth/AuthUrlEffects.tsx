import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

import { useAppDispatch } from "../../lib/store/hooks";
import { openAuth, showNotice } from "../../lib/store/uiSlice";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { useSession } from "../../lib/session/useSession";
import { useAdoptSessionMutation, useAffiliateHitMutation, useVerifyAccountMutation } from "./authApi";
import { referralFromUrl, rememberReferral } from "./referral";
import { URL_KEYS } from "./urlAsks";
import { verificationNotice } from "./verification";

/** Timings: the registration popup and the e-mail verification wait 1 s after load. */
export const REGISTER_POPUP_DELAY_MS = 1000;
export const VERIFY_DELAY_MS = 1000;

/** What a URL asks of the site on arrival: ?ID=&type=&click_id= (a referral, on any path;
 * /register also opens the registration popup), ?token= (e-mail
 * verification), ?sid= / ?wsession= (a session handed over, adopted by the BFF and removed
 * from the address bar). No UI of its own; the layout loads it only when an address asks one
 * of these (`urlAsks`). */
export function AuthUrlEffects() {
  const { i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const { known, loggedIn } = useSession();
  const { data: config } = useGetConfigQuery();
  const [verify] = useVerifyAccountMutation();
  const [affiliateHit] = useAffiliateHitMutation();
  const [adopt] = useAdoptSessionMutation();
  const handled = useRef(new Set<string>());

  // A session id must never stay in the address bar: take it out first, then adopt it.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const sid = params.get(URL_KEYS.session) ?? params.get(URL_KEYS.walletSession);
    if (!sid || handled.current.has("sid")) return;
    handled.current.add("sid");
    params.delete(URL_KEYS.session);
    params.delete(URL_KEYS.walletSession);
    const query = params.toString();
    window.history.replaceState(window.history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
    void adopt({ sid });
  }, [location, adopt]);

  // A URL whose type is affiliate counts a hit on any path, not only /register;
  // its referral is kept for a sign-up that follows.
  useEffect(() => {
    const referral = referralFromUrl(location.search);
    if (!referral || !known || handled.current.has(`referral${location.search}`)) return;
    handled.current.add(`referral${location.search}`);
    rememberReferral(referral);
    if (referral.type === "affiliate") {
      void affiliateHit({ campaignId: referral.id, campaignType: referral.type, languageCode: i18n.resolvedLanguage ?? "es" });
    }
  }, [location, known, affiliateHit, i18n.resolvedLanguage]);

  useEffect(() => {
    if (location.pathname !== "/register" || !known || handled.current.has("register")) return;
    handled.current.add("register");
    if (loggedIn) return;
    const timer = setTimeout(() => dispatch(openAuth("register")), REGISTER_POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [location, known, loggedIn, dispatch]);

  useEffect(() => {
    const token = new URLSearchParams(location.search).get(URL_KEYS.verification);
    if (!token || !config || handled.current.has("token")) return;
    handled.current.add("token");
    const timer = setTimeout(() => {
      void verify({ token, face: config.skin.id })
        .unwrap()
        .then(async (reply) => {
          // The login popup's texts load with the popup, which may not have opened yet.
          await i18n.loadNamespaces("auth");
          const t = i18n.getFixedT(null, "auth");
          const notice = verificationNotice(reply, t);
          if (notice) dispatch(showNotice({ kind: "message", title: t("verify.title"), ...notice }));
        })
        .catch(() => undefined);
    }, VERIFY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [location, config, verify, dispatch, i18n]);

  return null;
}
