import type { Media } from "../../api/contracts.gen";
import { useLocale } from "../../i18n/useLocale";
import { useGetFooterBannersQuery, useGetLobbyBannersQuery } from "../../lib/content/contentApi";
import { PlatformLink } from "../../components/PlatformLink";
import { useImagesShown } from "../../components/useImagesShown";

interface Promo {
  id: number;
  title: string;
  routerLink: string;
  image: Media;
}

interface PromoGridProps {
  promos: readonly Promo[];
  kind: "lobby" | "footer";
  size: [number, number];
  loading: boolean;
  /** Called once every banner's art has loaded or failed (at once when there is none). */
  onShown?: () => void;
}

/** Promo banners as a grid of linked images (lazy, with their intrinsic size). */
function PromoGrid({ promos, kind, size, loading, onShown }: PromoGridProps) {
  const imageSettled = useImagesShown(loading ? undefined : promos.length, onShown);
  if (loading && kind === "lobby") {
    // Holds the space of a row of banners while they load, so nothing below jumps.
    return (
      <ul className="promo-grid promo-grid--lobby promo-grid--pending" aria-hidden="true">
        <li />
        <li />
      </ul>
    );
  }
  if (promos.length === 0) return null;
  return (
    <ul className={`promo-grid promo-grid--${kind}`} data-testid={`${kind}-banners`}>
      {promos.map(({ id, title, routerLink, image }) => (
        <li key={id}>
          <PlatformLink to={routerLink} label={title} className="promo-grid__link">
            {/* The lobby banners sit near the top of the page: they load at once, the footer ones lazily. */}
            <img
              src={image.url}
              alt={image.alternativeText ?? title}
              width={image.width ?? size[0]}
              height={image.height ?? size[1]}
              loading={kind === "lobby" ? "eager" : "lazy"}
              fetchPriority={kind === "lobby" ? "high" : "auto"}
              decoding="async"
              onLoad={imageSettled}
              onError={imageSettled}
            />
          </PlatformLink>
        </li>
      ))}
    </ul>
  );
}

/** The lobby banners under the quick icons (800x300 art); `onShown` as in PromoGrid. */
export function LobbyBanners({ onShown }: { onShown?: () => void }) {
  const { data = [], isLoading } = useGetLobbyBannersQuery(useLocale());
  const promos = data.map((b) => ({ ...b, image: b.LobbyImage }));
  return <PromoGrid kind="lobby" size={[800, 300]} promos={promos} loading={isLoading} onShown={onShown} />;
}

/** The footer promo banners at the end of the home page (1200x250 art). */
export function FooterBanners() {
  const { data = [], isLoading } = useGetFooterBannersQuery(useLocale());
  const promos = data.map((b) => ({ ...b, image: b.FooterImage }));
  return <PromoGrid kind="footer" size={[1200, 250]} promos={promos} loading={isLoading} />;
}
