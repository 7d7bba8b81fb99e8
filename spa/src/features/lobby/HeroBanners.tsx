import { useTranslation } from "react-i18next";

import type { Media } from "../../api/contracts.gen";
import { useLocale } from "../../i18n/useLocale";
import { useGetHomeBannersQuery } from "../content/contentApi";
import { BannerCarousel, type Slide } from "./BannerCarousel";

/** A CMS banner as a slide; wide banners are 1600x500 unless the CMS says otherwise. */
export function slide(id: number, media: Media, link: string): Slide {
  return { id, url: media.url, alt: media.alternativeText ?? "", width: media.width ?? 1600, height: media.height ?? 500, link };
}

/** The active hero banners of the current language; `onShown` as in BannerCarousel. */
export function HeroBanners({ onShown }: { onShown?: () => void }) {
  const { t } = useTranslation("lobby");
  const locale = useLocale();
  const { data = [], isLoading } = useGetHomeBannersQuery(locale);
  const slides = data.map((banner) => slide(banner.id, banner.heroBanner, banner.routerLink));
  return <BannerCarousel banners={slides} loading={isLoading} label={t("hero.label")} testId="hero-banners" onShown={onShown} />;
}
