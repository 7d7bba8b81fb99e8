import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type {
  EventBanner,
  Faq,
  FooterBanner,
  Game,
  GamesList,
  HeaderLink,
  HomeBanner,
  LobbyBanner,
  PokerBanner,
  ReelDeals,
  StrapiListEventBanner,
  StrapiListFooterBanner,
  StrapiListGamesList,
} from "../../api/contracts.gen";
import type { Locale } from "../../i18n/language";
import { activeIn, strapiQuery } from "./strapi";

interface StrapiList<T> {
  data: T[];
}

/** A games list: a provider's row (`provider`) or a category's (`category`: dropsAndWins, Hoiliday...). */
export interface GamesListArgs {
  locale: Locale;
  provider?: string;
  category?: string;
}

const active = { status: "active" };

/** The CMS collections (GET /capi/*, cached by the gateway per skin and query). */
export const contentApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHomeBanners: build.query<HomeBanner[], Locale>({
      query: (locale) => strapiQuery(pathOf("homeBanners"), { ...active, locale }),
      transformResponse: (reply: StrapiList<HomeBanner>, _meta, locale) => activeIn(reply.data, locale),
    }),
    getLobbyBanners: build.query<LobbyBanner[], Locale>({
      query: (locale) => strapiQuery(pathOf("lobbyBanners"), { ...active, locale }),
      transformResponse: (reply: StrapiList<LobbyBanner>, _meta, locale) => activeIn(reply.data, locale),
    }),
    getFooterBanners: build.query<FooterBanner[], Locale>({
      query: (locale) => strapiQuery(pathOf("footerBanners"), { ...active, locale }),
      transformResponse: (reply: StrapiListFooterBanner, _meta, locale) => activeIn(reply.data, locale),
    }),
    getEventBanners: build.query<EventBanner[], Locale>({
      query: (locale) => strapiQuery(pathOf("eventBanners"), { ...active, locale }),
      transformResponse: (reply: StrapiListEventBanner, _meta, locale) => activeIn(reply.data, locale),
    }),
    getPokerBanners: build.query<PokerBanner[], Locale>({
      query: (locale) => strapiQuery(pathOf("pokerBanners"), { ...active, locale }),
      transformResponse: (reply: StrapiList<PokerBanner>, _meta, locale) => activeIn(reply.data, locale),
    }),
    /** The games of one list (the platform reads `data[0].gamesList`). */
    getGames: build.query<Game[], GamesListArgs>({
      query: ({ locale, provider, category }) =>
        strapiQuery(pathOf("gamesLists"), { ...active, locale, gameProviderName: provider, category }),
      transformResponse: (reply: StrapiListGamesList, _meta, { locale, category }) => {
        const lists = activeIn<GamesList>(reply.data, locale).filter((list) => (list.category ?? undefined) === category);
        return lists[0]?.gamesList ?? [];
      },
    }),
    /** The frequent questions in one language, in the CMS's order. */
    getFaqs: build.query<Faq[], Locale>({
      query: (locale) => strapiQuery(pathOf("faqs"), { ...active, locale }),
      transformResponse: (reply: StrapiList<Faq>, _meta, locale) =>
        activeIn(reply.data, locale).sort((a, b) => (a.order ?? 0) - (b.order ?? 0)),
    }),
    /** The header links by id: names per language, url, icon. */
    getHeaderLinks: build.query<HeaderLink[], void>({
      query: () => strapiQuery(pathOf("headerLinks"), {}),
      transformResponse: (reply: StrapiList<HeaderLink>) => reply.data,
    }),
    getReelDeals: build.query<ReelDeals | null, Locale>({
      query: (locale) => strapiQuery(pathOf("newReels"), { locale }),
      transformResponse: (reply: StrapiList<ReelDeals>) => reply.data[0] ?? null,
    }),
  }),
});

export const {
  useGetHomeBannersQuery,
  useGetLobbyBannersQuery,
  useGetFooterBannersQuery,
  useGetEventBannersQuery,
  useGetPokerBannersQuery,
  useGetGamesQuery,
  useGetReelDealsQuery,
  useGetFaqsQuery,
  useGetHeaderLinksQuery,
} = contentApi;
