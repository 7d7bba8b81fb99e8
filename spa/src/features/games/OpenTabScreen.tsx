import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";

import { Icon } from "../../components/icons/Icon";
import { PageLoader } from "../../components/PageLoader";
import { useHeaderBalance, usePlayerName } from "../../lib/player/hooks";
import { useGetConfigQuery } from "../../lib/config/configApi";
import { fullPageGame, fullPageMode, LOTTERY_TARGET } from "./fullPage";
import { useLaunchUrl } from "./useLaunchGame";
import { formatMoney } from "../../utils/money";
import "../../styles/cashier.css";

/** /opentab (outside the layout): the game chosen for a full page, launched afresh in this tab; with
 * the lottery flag stored, the lottery frame instead (a pulsing logo until the game answers). */
export function OpenTabScreen() {
  return (
    <Suspense fallback={<PageLoader />}>
      <OpenTab />
    </Suspense>
  );
}

function OpenTab() {
  const { t } = useTranslation("games");
  const navigate = useNavigate();
  const skin = useGetConfigQuery().data?.skin;
  const balance = useHeaderBalance();
  const name = usePlayerName();
  const resolve = useLaunchUrl();
  const [mode] = useState(fullPageMode);
  const [game] = useState(() => (mode === "lottery" ? { target: LOTTERY_TARGET, title: t("fullPage.lottery") } : fullPageGame()));
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(game ? null : t("fullPage.none"));

  useEffect(() => {
    if (!game || !skin) return;
    let live = true;
    void (async () => {
      const outcome = await resolve(game.target);
      if (!live) return;
      if (outcome.url !== null) setUrl(outcome.url);
      else setFailure(outcome.message || t("fullPage.failed"));
    })();
    return () => {
      live = false;
    };
  }, [game, skin, resolve, t]);

  const money = (value: number | undefined) => formatMoney(value, balance.symbol);
  return (
    <div className="open-tab">
      <header className="open-tab__bar">
        <Link to="/home" className="icon-button" aria-label={t("fullPage.home")}>
          <Icon name="home" />
        </Link>
        <h1 className="open-tab__title">{game?.title}</h1>
        <span className="open-tab__player" data-testid="opentab-player">
          {name}
        </span>
        <span>
          {t("fullPage.cash")} <strong data-testid="opentab-cash">{money(balance.cash)}</strong>
        </span>
        <span>
          {t("fullPage.bonus")} <strong>{money(balance.bonus)}</strong>
        </span>
        <button type="button" className="icon-button" onClick={() => void navigate("/home")} aria-label={t("fullPage.close")} data-testid="opentab-close">
          <Icon name="close" />
        </button>
      </header>
      <main className={`open-tab__stage open-tab__stage--${mode}`} data-testid={`opentab-${mode}`}>
        {url ? (
          <iframe src={url} title={game?.title ?? ""} allow="autoplay; fullscreen" allowFullScreen data-testid="opentab-frame" />
        ) : failure ? (
          <p role="alert" className="page__notice">
            {failure}
          </p>
        ) : mode === "lottery" ? (
          <div className="open-tab__logo" role="status" aria-label={t("grid.loading")}>
            {skin && <img src={skin.branding.logo} alt="" width={165} height={36} />}
          </div>
        ) : (
          <PageLoader />
        )}
      </main>
      <footer className="open-tab__footer">{t("fullPage.copyright", { year: new Date().getFullYear(), site: skin?.name ?? "" })}</footer>
    </div>
  );
}
