import { consoleApi } from "../../api/consoleApi";
import type { Overview, Series } from "../../api/types";

export const overviewApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getOverview: build.query<Overview, void>({
      query: () => "api/overview",
      providesTags: ["Overview"],
    }),
    getSeries: build.query<Series, number>({
      query: (minutes) => `api/series?minutes=${minutes}`,
      providesTags: ["Series"],
    }),
  }),
});

export const { useGetOverviewQuery, useGetSeriesQuery } = overviewApi;
