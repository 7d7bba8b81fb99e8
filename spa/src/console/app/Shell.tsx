import { Outlet } from "react-router";
import { useTranslation } from "react-i18next";

import { consoleApi, TAGS } from "../api/consoleApi";
import { SignInDialog } from "../features/signin/SignInDialog";
import { SignInScreen } from "../features/signin/SignInScreen";
import { StatusLine } from "../features/status/StatusLine";
import { useGetSessionQuery } from "../lib/session/sessionApi";
import { selectSession } from "../lib/session/sessionSlice";
import { useConsoleDispatch, useConsoleSelector } from "../lib/store/hooks";
import { TopBar } from "./TopBar";

/**
 * The console's frame. Without a session: the sign-in screen. When the session ends while a view
 * is open, the sign-in dialog opens over it and the view stays mounted, forms and all; signing in
 * again refreshes what the views show. Another operator signing in starts the views afresh. Under
 * the top bar, on every view, the cluster's status line.
 */
export function Shell() {
  const { t } = useTranslation();
  const dispatch = useConsoleDispatch();
  const { status, operator, reason } = useConsoleSelector(selectSession);
  useGetSessionQuery();

  if (status === "checking") {
    return (
      <p className="boot" role="status">
        {t("loading")}
      </p>
    );
  }
  if (status === "signedOut" || !operator) return <SignInScreen reason={reason} />;
  return (
    <>
      <TopBar operator={operator} />
      <StatusLine />
      <main className="console-main" key={operator.name}>
        <Outlet />
      </main>
      {status === "expired" && (
        <SignInDialog name={operator.name} onSignedIn={() => dispatch(consoleApi.util.invalidateTags([...TAGS]))} />
      )}
    </>
  );
}
