import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

import { useAppDispatch, useAppSelector } from "../../lib/store/hooks";
import { Icon } from "../../components/icons/Icon";
import { useShownFor } from "../../lib/useShownFor";
import { rememberFullPage } from "./fullPage";
import { closeGame, selectGameFrame } from "./gameSlice";

/** Ezugi's lobby shows a loader for its first 4 seconds. */
export const EZUGI_LOADER_MS = 4000;

/** The launched game at the top of the page, scrolled into view, closed by its X. */
export function GameFrame() {
  const { t } = useTranslation("games");
  const dispatch = useAppDispatch();
  const { url, title, loader, target } = useAppSelector(selectGameFrame);
  const frame = useRef<HTMLElement>(null);
  const [loading] = useShownFor(loader ? url : null, EZUGI_LOADER_MS);

  useEffect(() => {
    if (!url) return;
    frame.current?.scrollIntoView({ block: "start" });
    window.scrollTo({ top: 0 });
  }, [url]);

  if (!url) return null;
  return (
    <section ref={frame} className="game-frame" aria-label={title} data-testid="game-frame">
      <header className="game-frame__bar">
        <h2 className="game-frame__title">{title}</h2>
        {target && (
          <button
            type="button"
            className="icon-button game-frame__full"
            onClick={() => {
              rememberFullPage({ target, title });
              dispatch(closeGame());
              window.open("/opentab", "_blank");
            }}
            aria-label={t("frame.fullPage")}
            data-testid="game-frame-fullpage"
          >
            <Icon name="grid" />
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          onClick={() => dispatch(closeGame())}
          aria-label={t("frame.close")}
          data-testid="game-frame-close"
        >
          <Icon name="close" />
        </button>
      </header>
      <div className="game-frame__stage">
        <iframe src={url} title={title} allow="autoplay; fullscreen" allowFullScreen />
        {loading && (
          <div className="game-frame__loader" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>{t("frame.loading")}</span>
          </div>
        )}
      </div>
    </section>
  );
}
