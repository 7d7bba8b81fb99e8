import { useTranslation } from "react-i18next";
import { useParams } from "react-router";

import type { ShellKey } from "../../components/menu";

const TITLES: Record<string, ShellKey> = {
  slots: "menu.slots",
  livedealer: "menu.liveCasino",
  sports: "menu.sports",
  horseracing: "menu.horses",
  Blackjack: "menu.blackjackHeat",
  flywin: "screens.flywin",
};

/** /games/:category: the game lists come with the lobby issue; the heading is here now. */
export function GamesScreen() {
  const { t } = useTranslation("shell");
  const { category = "slots" } = useParams();
  return (
    <section className="screen">
      <h1 className="screen__title">{t(TITLES[category] ?? "screens.games")}</h1>
      <p className="screen__soon">{t("screens.comingSoon")}</p>
    </section>
  );
}
