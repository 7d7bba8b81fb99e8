import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type { ContactRequest, PlatformReply } from "../../api/contracts.gen";

export const pagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    contactUs: build.mutation<PlatformReply, ContactRequest>({
      query: (body) => ({ url: pathOf("contactUs"), method: "POST", body }),
    }),
  }),
});

export const { useContactUsMutation } = pagesApi;
