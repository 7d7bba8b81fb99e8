import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { Dialog } from "../../components/Dialog";
import { Icon } from "../../components/icons/Icon";
import type { ProviderFlags } from "../../lib/providers/flags";
import { CHOSEN_PROVIDER_KEY, providerLabel } from "../../lib/providers/labels";
import { HOME_CHIPS, homeProviders } from "./providers";

/** Nine provider chips and a See All popup; choosing one opens the slots screen on its games. */
export function ProviderChips({ flags }: { flags: ProviderFlags }) {
  const { t } = useTranslation("lobby");
  const navigate = useNavigate();
  const titleId = useId();
  const [all, setAll] = useState(false);
  const providers = homeProviders(flags.switches);
  if (providers.length === 0) return null;

  function choose(name: string) {
    localStorage.setItem(CHOSEN_PROVIDER_KEY, name);
    setAll(false);
    void navigate("/games/slots");
  }

  const chip = (name: string) => (
    <li key={name}>
      <button type="button" className="provider-chip" onClick={() => choose(name)} data-testid={`provider-${name}`}>
        {providerLabel(name)}
      </button>
    </li>
  );

  return (
    <section className="providers" aria-labelledby={`${titleId}-row`} data-testid="provider-chips">
      <h2 id={`${titleId}-row`} className="visually-hidden">
        {t("providers.title")}
      </h2>
      <ul className="providers__list">{providers.slice(0, HOME_CHIPS).map(chip)}</ul>
      <button type="button" className="button button--ghost providers__all" onClick={() => setAll(true)} data-testid="providers-see-all">
        {t("providers.seeAll")}
      </button>
      {all && (
        <Dialog labelledBy={titleId} onClose={() => setAll(false)} className="providers-popup" testId="providers-popup">
          <header className="dialog__head">
            <h2 id={titleId}>{t("providers.title")}</h2>
            <button type="button" className="icon-button" onClick={() => setAll(false)} aria-label={t("providers.close")}>
              <Icon name="close" />
            </button>
          </header>
          <ul className="providers__grid">{providers.map(chip)}</ul>
        </Dialog>
      )}
    </section>
  );
}
