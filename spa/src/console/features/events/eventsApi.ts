import { consoleApi } from "../../api/consoleApi";
import type { Timeline, TimelineFilters } from "./types";

export const eventsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getEvents: build.query<Timeline, TimelineFilters>({
      query: (filters) => {
        const given = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]));
        return `api/events?${new URLSearchParams(given).toString()}`;
      },
    }),
  }),
});

export const { useGetEventsQuery } = eventsApi;
