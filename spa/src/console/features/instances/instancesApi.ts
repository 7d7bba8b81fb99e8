import { consoleApi } from "../../api/consoleApi";
import type { Instances } from "../../api/types";

export const instancesApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    getInstances: build.query<Instances, void>({
      query: () => "api/instances",
      providesTags: ["Instances"],
    }),
  }),
});

export const { useGetInstancesQuery } = instancesApi;
