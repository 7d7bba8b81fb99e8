import { memo, useId, useState } from "react";
import { useTranslation } from "react-i18next";

import { useAppDispatch, useAppSelector } from "../lib/store/hooks";
import { openAuth, selectSideMenuOpen, toggleSideMenu } from "../lib/store/uiSlice";
import { useHeaderBalance, usePlayerName } from "../lib/player/hooks";
import { useLinkAllowed } from "../lib/access/useScreenAccess";
import { useGetConfigQuery } from "../lib/config/configApi";
import type { ProviderFlags } from "../lib/providers/flags";
import { useSession } from "../lib/session/useSession";
import { BalanceFigure } from "./BalanceFigure";
import { Dialog } from "./Dialog";
import { Icon } from "./icons/Icon";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { ACCOUNT_MENU, SIDE_MENU } from "./menu";
import { MenuLink } from "./MenuLink";
import { useMenuEntries } from "./useMenuEntries";

/** Under 991px: the side menu (the player's card, the header links, its My Profile submenu, the
 * language) and the full-screen all-tabs popup. */
export const SideMenu = memo(function SideMenu({ flags }: { flags: ProviderFlags }) {
  const { t } = useTranslation("shell");
  const open = useAppSelector(selectSideMenuOpen);
  const dispatch = useAppDispatch();
  const [allTabs, setAllTabs] = useState(false);
  const { t: tCommon } = useTranslation();
  const skin = useGetConfigQuery().data?.skin;
  const titleId = useId();
  const allTabsTitleId = useId();
  const languageId = useId();
  const close = () => dispatch(toggleSideMenu(false));
  const allowed = useLinkAllowed();
  const entries = useMenuEntries(SIDE_MENU, flags).filter((entry) => allowed(entry.path));

  if (allTabs) {
    return (
      <Dialog labelledBy={allTabsTitleId} onClose={() => setAllTabs(false)} className="all-tabs" testId="all-tabs-popup">
        <div className="all-tabs__head">
          <h2 id={allTabsTitleId}>{t("menu.allTabs")}</h2>
          <button type="button" className="icon-button" aria-label={t("menu.close")} onClick={() => setAllTabs(false)}>
            <Icon name="close" />
          </button>
        </div>
        <div className="all-tabs__grid">
          {entries.map((entry) => (
            <MenuLink
              key={entry.testId}
              to={entry.link}
              className="all-tabs__tile"
              onNavigate={() => {
                setAllTabs(false);
                close();
              }}
            >
              {entry.text}
            </MenuLink>
          ))}
        </div>
      </Dialog>
    );
  }
  if (!open) return null;
  return (
    <Dialog labelledBy={titleId} onClose={close} className="side-menu" testId="side-menu">
      <div className="side-menu__head">
        <h2 id={titleId} className="side-menu__title">
          {t("menu.title")}
        </h2>
        <button type="button" className="icon-button" data-testid="side-menu-close" aria-label={t("menu.close")} onClick={close}>
          <Icon name="close" />
        </button>
      </div>
      <PlayerCard onNavigate={close} />
      <nav aria-labelledby={titleId}>
        <ul className="side-menu__list">
          {entries.map((entry) => (
            <li key={entry.testId}>
              <MenuLink to={entry.link} className="side-menu__link" testId={entry.testId} onNavigate={close}>
                {entry.icon ? (
                  <img className="side-menu__icon" src={entry.icon} alt="" width={20} height={20} />
                ) : (
                  <span className="side-menu__icon" aria-hidden="true" />
                )}
                {entry.text}
              </MenuLink>
            </li>
          ))}
        </ul>
        <MyProfileSubmenu onNavigate={close} />
      </nav>
      <section className="side-menu__language" aria-labelledby={languageId}>
        <h3 id={languageId} className="side-menu__subtitle">
          {tCommon("language.label")}
        </h3>
        <LanguageSwitcher locales={skin?.locales} testIdPrefix="side-language" />
      </section>
      <button type="button" className="button button--ghost side-menu__all" data-testid="side-menu-alltabs" onClick={() => setAllTabs(true)}>
        <Icon name="grid" /> {t("menu.allTabs")}
      </button>
    </Dialog>
  );
});

/** Logged in: the name (to My balance), cash and bonus, which a phone's header has no room for. */
function PlayerCard({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation("shell");
  const { loggedIn } = useSession();
  const balance = useHeaderBalance();
  const name = usePlayerName();
  if (!loggedIn) return null;
  return (
    <section className="side-menu__player" aria-label={t("menu.myAccount")} data-testid="side-player">
      <MenuLink to="/mybalance" className="side-menu__player-name" testId="side-player-name" onNavigate={onNavigate}>
        {name ?? ""}
      </MenuLink>
      <BalanceFigure label={t("balance.cash")} balance={balance} wallet="cash" testId="side-balance-cash" />
      <BalanceFigure label={t("balance.bonus")} balance={balance} wallet="bonus" testId="side-balance-bonus" />
    </section>
  );
}

function MyProfileSubmenu({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation("shell");
  const { loggedIn } = useSession();
  const allowed = useLinkAllowed();
  const dispatch = useAppDispatch();
  const [expanded, setExpanded] = useState(false);
  const submenuId = useId();
  if (!loggedIn) {
    return (
      <div className="side-menu__visitor">
        <button type="button" className="button button--ghost" onClick={() => dispatch(openAuth("login"))}>
          {t("auth.login")}
        </button>
        <button type="button" className="button button--primary" onClick={() => dispatch(openAuth("register"))}>
          {t("auth.join")}
        </button>
      </div>
    );
  }
  const entries = ACCOUNT_MENU.filter((entry) => allowed(entry.path));
  return (
    <div className="side-menu__profile">
      <button
        type="button"
        className="side-menu__link side-menu__toggle"
        aria-expanded={expanded}
        aria-controls={submenuId}
        data-testid="side-myprofile"
        onClick={() => setExpanded((value) => !value)}
      >
        {t("menu.myProfile")}
        <Icon name="chevron" size={16} />
      </button>
      <ul id={submenuId} className="side-menu__submenu" hidden={!expanded}>
        {entries.map((entry) => (
          <li key={entry.path}>
            <MenuLink to={entry.path} className="side-menu__link" onNavigate={onNavigate}>
              {t(entry.label)}
            </MenuLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
