import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

import { useLocale } from "../../i18n/useLocale";
import { useGetEventBannersQuery } from "../../lib/content/contentApi";
import { BannerCarousel, slide } from "../../components/BannerCarousel";

/** The event banners whose link is this screen (Drops & Wins, Holiday Rush, Events...). */
export function EventBanner() {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { pathname } = useLocation();
  const { data = [], isLoading } = useGetEventBannersQuery(locale);
  const slides = data
    .filter((banner) => banner.routerLink.toLowerCase() === pathname.toLowerCase())
    .map((banner) => slide(banner.id, banner.eventBanner, banner.routerLink));
  return <BannerCarousel banners={slides} loading={isLoading && slides.length > 0} label={t("hero.label")} testId="event-banners" />;
}
