import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { Icon, type IconName } from "../../components/icons/Icon";
import { SiteLink } from "../../components/SiteLink";
import type { ProviderFlags } from "../../lib/providers/flags";
import { CHOSEN_PROVIDER_KEY } from "../../lib/providers/labels";

function Tile({ icon, label, children }: { icon: IconName; label: string; children?: ReactNode }) {
  return (
    <>
      <span className="quick-icons__icon" aria-hidden="true">
        <Icon name={icon} size={26} />
      </span>
      <span>{label}</span>
      {children}
    </>
  );
}

/**
 * Lobby, Top, Roulette (a live table in the frame), Jackpot (slots filtered to mancala),
 * Horses and Blackjack League; each gated by its provider's switch. `onRoulette` launches the
 * live table with the tile's title (the games feature owns launches: the lobby screen wires it).
 */
export function QuickIcons({ flags, onRoulette }: { flags: ProviderFlags; onRoulette: (title: string) => void }) {
  const { t } = useTranslation("lobby");
  const navigate = useNavigate();
  const roulette = t("quick.roulette");

  return (
    <nav className="quick-icons" aria-label={t("quick.label")} data-testid="quick-icons">
      <SiteLink to="/home" className="quick-icons__item" testId="quick-lobby">
        <Tile icon="home" label={t("quick.lobby")} />
      </SiteLink>
      <SiteLink to="/games/slots" className="quick-icons__item" testId="quick-top">
        <Tile icon="fire" label={t("quick.top")} />
      </SiteLink>
      {flags.liveCasino && (
        <button
          type="button"
          className="quick-icons__item"
          onClick={() => onRoulette(roulette)}
          data-testid="quick-roulette"
        >
          <Tile icon="roulette" label={roulette} />
        </button>
      )}
      {flags.spinWheel && (
        <button
          type="button"
          className="quick-icons__item"
          onClick={() => {
            localStorage.setItem(CHOSEN_PROVIDER_KEY, "mancala");
            void navigate("/games/slots");
          }}
          data-testid="quick-jackpot"
        >
          <Tile icon="coins" label={t("quick.jackpot")} />
        </button>
      )}
      {flags.horses && (
        <SiteLink to="/games/horseracing" className="quick-icons__item" testId="quick-horses">
          <Tile icon="horse" label={t("quick.horses")} />
        </SiteLink>
      )}
      {flags.blackjackLeague && (
        <SiteLink to="/blackjackleague" className="quick-icons__item" testId="quick-blackjackleague">
          <Tile icon="trophy" label={t("quick.blackjackLeague")} />
        </SiteLink>
      )}
    </nav>
  );
}
