import { useTranslation } from "react-i18next";

import type { ShellKey } from "../../components/menu";

/** A screen whose content a later issue builds: its heading, in the player's language. */
export function PlaceholderScreen({ title }: { title: ShellKey }) {
  const { t } = useTranslation("shell");
  return (
    <section className="screen">
      <h1 className="screen__title">{t(title)}</h1>
      <p className="screen__soon">{t("screens.comingSoon")}</p>
    </section>
  );
}
