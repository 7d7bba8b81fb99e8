import { api } from "../../api/baseApi";
import type { ContactRequest, PlatformReply } from "../../api/contracts.gen";

export const pagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    contactUs: build.mutation<PlatformReply, ContactRequest>({
      query: (body) => ({ url: "/api/player/contactUs", method: "POST", body }),
    }),
  }),
});

export const { useContactUsMutation } = pagesApi;
