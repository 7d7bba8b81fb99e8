import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";

import type { ConsoleSession } from "../api/types";
import { LanguagePicker } from "../components/LanguagePicker";
import { consoleApi } from "../api/consoleApi";
import { useSignOutMutation } from "../lib/session/sessionApi";
import { useConsoleDispatch } from "../lib/store/hooks";

const VIEWS = [
  { to: "/", key: "overview", end: true },
  { to: "/canaries", key: "canaries", end: false },
  { to: "/instances", key: "instances", end: false },
  { to: "/history", key: "history", end: false },
  { to: "/audit", key: "audit", end: false },
  { to: "/events", key: "events", end: false },
  { to: "/plans", key: "plans", end: false },
] as const;

/** Who is signed in (name and role), the six views, the language and sign-out. */
export function TopBar({ operator }: { operator: ConsoleSession }) {
  const { t } = useTranslation();
  const dispatch = useConsoleDispatch();
  const [signOut, { isLoading }] = useSignOutMutation();

  async function leave() {
    await signOut();
    // Nothing of this operator's answers stays in memory for the next one.
    dispatch(consoleApi.util.resetApiState());
  }

  return (
    <header className="site-header console-bar">
      <Link className="console-bar__brand" to="/">
        {t("brand")}
      </Link>
      <nav className="console-bar__nav" aria-label={t("nav.label")}>
        {VIEWS.map((view) => (
          <NavLink key={view.key} to={view.to} end={view.end} data-testid={`nav-${view.key}`}>
            {t(`nav.${view.key}`)}
          </NavLink>
        ))}
        {operator.role === "admin" && (
          <NavLink to="/operators" data-testid="nav-operators">
            {t("nav", { ns: "operators" })}
          </NavLink>
        )}
      </nav>
      <div className="console-bar__who">
        <span data-testid="operator-name">{operator.name}</span>
        <span className={`badge badge--role-${operator.role}`} data-testid="operator-role">
          {t(`roles.${operator.role}`)}
        </span>
        <LanguagePicker />
        <button type="button" className="button button--quiet" onClick={() => void leave()} disabled={isLoading}
                data-testid="sign-out">
          {t("signOut")}
        </button>
      </div>
    </header>
  );
}
