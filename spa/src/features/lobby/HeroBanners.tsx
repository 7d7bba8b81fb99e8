import { useTranslation } from "react-i18next";

import { useLocale } from "../../i18n/useLocale";
import { useGetHomeBannersQuery } from "../../lib/content/contentApi";
import { BannerCarousel, slide } from "../../components/BannerCarousel";

/** The active hero banners of the current language; `onShown` as in BannerCarousel. */
export function HeroBanners({ onShown }: { onShown?: () => void }) {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { data = [], isLoading } = useGetHomeBannersQuery(locale);
  const slides = data.map((banner) => slide(banner.id, banner.heroBanner, banner.routerLink));
  return <BannerCarousel banners={slides} loading={isLoading} label={t("hero.label")} testId="hero-banners" onShown={onShown} />;
}
