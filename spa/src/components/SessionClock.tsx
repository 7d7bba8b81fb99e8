import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { useGetSessionQuery } from "../lib/session/sessionApi";
import { formatSessionTime, sessionElapsedMs } from "../utils/sessionTime";

/** How long the player has been signed in, from the gateway's session (one clock for every tab
 * and instance), ticking on the second. */
export default function SessionClock() {
  const { t } = useTranslation("shell");
  const { data, fulfilledTimeStamp } = useGetSessionQuery();
  const [localNow, setLocalNow] = useState(() => Date.now());
  const signedInAt = data?.signedInAt;
  const serverNow = data?.now;
  useEffect(() => {
    if (signedInAt == null || serverNow == null || fulfilledTimeStamp === undefined) return;
    let timer = 0;
    const tick = () => {
      const now = Date.now();
      setLocalNow(now);
      const elapsed = sessionElapsedMs(signedInAt, serverNow, fulfilledTimeStamp, now);
      timer = window.setTimeout(tick, 1000 - (((elapsed % 1000) + 1000) % 1000) + 5);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [signedInAt, serverNow, fulfilledTimeStamp]);
  if (signedInAt == null || serverNow == null || fulfilledTimeStamp === undefined) return null;
  const text = formatSessionTime(sessionElapsedMs(signedInAt, serverNow, fulfilledTimeStamp, localNow) / 1000);
  return (
    <span className="session-clock" data-testid="session-clock" title={t("session.clock")} aria-label={`${t("session.clock")} ${text}`}>
      <span className="session-clock__label">{t("session.clockShort")}</span>
      <span className="session-clock__time">{text}</span>
    </span>
  );
}
