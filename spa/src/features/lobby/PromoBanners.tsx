import type { Media } from "../../api/contracts.gen";
import { useLocale } from "../../i18n/useLocale";
import { useGetFooterBannersQuery, useGetLobbyBannersQuery } from "../content/contentApi";
import { BannerLink } from "./BannerLink";

interface Promo {
  id: number;
  title: string;
  routerLink: string;
  image: Media;
}

/** Promo banners as a grid of linked images (lazy, with their intrinsic size). */
function PromoGrid({ promos, kind, size }: { promos: readonly Promo[]; kind: "lobby" | "footer"; size: [number, number] }) {
  if (promos.length === 0) return null;
  return (
    <ul className={`promo-grid promo-grid--${kind}`} data-testid={`${kind}-banners`}>
      {promos.map(({ id, title, routerLink, image }) => (
        <li key={id}>
          <BannerLink to={routerLink} label={title} className="promo-grid__link">
            <img src={image.url} alt={image.alternativeText ?? title} width={image.width ?? size[0]} height={image.height ?? size[1]} loading="lazy" decoding="async" />
          </BannerLink>
        </li>
      ))}
    </ul>
  );
}

/** The lobby banners under the quick icons (800x300 art). */
export function LobbyBanners() {
  const { data = [] } = useGetLobbyBannersQuery(useLocale());
  return <PromoGrid kind="lobby" size={[800, 300]} promos={data.map((b) => ({ ...b, image: b.LobbyImage }))} />;
}

/** The footer promo banners at the end of the home page (1200x250 art). */
export function FooterBanners() {
  const { data = [] } = useGetFooterBannersQuery(useLocale());
  return <PromoGrid kind="footer" size={[1200, 250]} promos={data.map((b) => ({ ...b, image: b.FooterImage }))} />;
}
