import { lazy, memo, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { useAppDispatch } from "../lib/store/hooks";
import { openAuth, toggleSideMenu } from "../lib/store/uiSlice";
import { useHeaderBalance, usePlayerName, usePlayerType } from "../lib/player/hooks";
import { useLinkAllowed } from "../lib/access/useScreenAccess";
import { useGetConfigQuery } from "../lib/config/configApi";
import type { ProviderFlags } from "../lib/providers/flags";
import { useLogout } from "../lib/session/useLogout";
import { useSession } from "../lib/session/useSession";
import { BalanceFigure } from "./BalanceFigure";
import { DropdownMenu } from "./DropdownMenu";
import { Icon } from "./icons/Icon";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { ACCOUNT_MENU, EVENTS_MENU, POKER_ENTRY, TOP_BAR, VISITOR_TOP_BAR, VISITOR_TOP_BAR_END } from "./menu";
import { MenuLink } from "./MenuLink";
import { SiteLink } from "./SiteLink";
import { useMenuEntries, type ShownEntry } from "./useMenuEntries";

// The session's clock: a player's only, so a visitor's first page does not carry it.
const SessionClock = lazy(() => import("./SessionClock"));

export const Header = memo(function Header({ flags }: { flags: ProviderFlags }) {
  const { t } = useTranslation("shell");
  const dispatch = useAppDispatch();
  const { data: config } = useGetConfigQuery();
  const { loggedIn, known } = useSession();
  const skin = config?.skin;
  const visitor = known && !loggedIn;
  const start = useMenuEntries(visitor ? VISITOR_TOP_BAR : TOP_BAR, flags);
  const end = useMenuEntries(visitor ? VISITOR_TOP_BAR_END : [], flags);
  const events = useMenuEntries(EVENTS_MENU, flags);
  const poker = useMenuEntries([POKER_ENTRY], flags);
  const topLink = (entry: ShownEntry) => (
    <MenuLink key={entry.testId} to={entry.link} className="top-nav__link" testId={entry.testId}>
      {entry.text}
    </MenuLink>
  );

  return (
    <header className="site-header" data-testid="site-header">
      <button
        type="button"
        className="icon-button site-header__menu-toggle"
        data-testid="menu-toggle"
        aria-label={t("menu.open")}
        onClick={() => dispatch(toggleSideMenu(true))}
      >
        <Icon name="menu" size={24} />
      </button>
      <SiteLink to="/home" className="brand" ariaLabel={skin?.name ?? t("menu.home")}>
        {skin && <img className="brand__logo" src={skin.branding.logo} alt="" width={165} height={36} />}
      </SiteLink>
      <nav className="top-nav" aria-label={t("menu.main")}>
        {start.map(topLink)}
        {events.length > 0 && (
          <DropdownMenu label={t("menu.events")} testId="nav-events" className="top-nav__events">
            {(close) =>
              events.map((entry) => (
                <MenuLink key={entry.testId} to={entry.link} className="dropdown__item" testId={entry.testId} onNavigate={close}>
                  {entry.text}
                </MenuLink>
              ))
            }
          </DropdownMenu>
        )}
        {poker.map(topLink)}
        {end.map(topLink)}
      </nav>
      <div className="site-header__side">
        {known && (loggedIn ? <PlayerArea /> : <VisitorButtons />)}
        <LanguageSwitcher locales={skin?.locales} />
      </div>
    </header>
  );

});

function VisitorButtons() {
  const { t } = useTranslation("shell");
  const dispatch = useAppDispatch();
  return (
    <div className="visitor-buttons">
      <button type="button" className="button button--ghost" data-testid="header-login" onClick={() => dispatch(openAuth("login"))}>
        {t("auth.login")}
      </button>
      <button type="button" className="button button--primary" data-testid="header-join" onClick={() => dispatch(openAuth("register"))}>
        {t("auth.join")}
      </button>
    </div>
  );
}

function PlayerArea() {
  const { t } = useTranslation("shell");
  const balance = useHeaderBalance();
  const name = usePlayerName();
  const playerType = usePlayerType();
  const allowed = useLinkAllowed();
  const logout = useLogout();
  const navigate = useNavigate();
  const accountEntries = ACCOUNT_MENU.filter((entry) => allowed(entry.path));

  return (
    <div className="player-area">
      {allowed("/deposit") && (
        <MenuLink to="/deposit" className="deposit-link" testId="header-deposit">
          <Icon name="wallet" />
          <span className="deposit-link__text">{t("menu.deposit")}</span>
        </MenuLink>
      )}
      <div className="profile-block" data-testid="profile-block">
        <Suspense fallback={null}>
          <SessionClock />
        </Suspense>
        <button type="button" className="profile-block__name" data-testid="profile-name" onClick={() => void navigate("/mybalance")}>
          {name ?? ""}
        </button>
        <BalanceFigure label={t("balance.cash")} balance={balance} wallet="cash" testId="balance-cash" />
        <BalanceFigure label={t("balance.bonus")} balance={balance} wallet="bonus" testId="balance-bonus" />
      </div>
      <DropdownMenu label={<Icon name="user" />} ariaLabel={t("menu.myAccount")} testId="account-menu" className="account-menu">
        {(close) => (
          <>
            <span className="dropdown__heading">{t("menu.myAccount")}</span>
            {playerType && (
              <span className="dropdown__note" data-testid="player-type">
                {playerType === "REAL" ? t("menu.realPlayer") : playerType}
              </span>
            )}
            {accountEntries.map((entry) => (
              <MenuLink key={entry.path} to={entry.path} className="dropdown__item" testId={entry.testId} onNavigate={close}>
                {t(entry.label)}
              </MenuLink>
            ))}
          </>
        )}
      </DropdownMenu>
      <button type="button" className="icon-button" data-testid="header-logout" aria-label={t("auth.logout")} title={t("auth.logout")} onClick={logout}>
        <Icon name="logout" />
      </button>
    </div>
  );
}
