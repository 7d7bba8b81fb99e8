import { FooterBanners, LobbyBanners } from "../../features/lobby/PromoBanners";
import { PromotionsScreen } from "../../features/pages/PageScreens";

/** /promotions: the pages feature's screen showing the lobby's promotional banners. */
export function PromotionsRoute() {
  return (
    <PromotionsScreen
      banners={
        <>
          <LobbyBanners />
          <FooterBanners />
        </>
      }
    />
  );
}
