import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type {
  BankAccount,
  BankAccountsResponse,
  CountriesResponse,
  DeleteBankAccountsRequest,
  DocumentsResponse,
  PlatformReply,
  UpdatePasswordRequest,
  UpdateProfileRequest,
} from "../../api/contracts.gen";
import { moneyCall as exclusive } from "../../api/idempotency";

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<PlatformReply, { body: UpdateProfileRequest; key: string }>({
      query: exclusive("updateProfile"),
      invalidatesTags: ["Profile"],
    }),
    updatePassword: build.mutation<PlatformReply, { body: UpdatePasswordRequest; key: string }>({
      query: exclusive("updatePassword"),
    }),
    // Public and the same for every player: read once a session.
    getCountries: build.query<CountriesResponse, void>({
      query: () => ({ url: pathOf("getCountries"), method: "POST", body: {} }),
      keepUnusedDataFor: 3600,
    }),
    getDocuments: build.query<DocumentsResponse, void>({
      query: () => ({ url: pathOf("getDocuments"), method: "POST", body: {} }),
      providesTags: ["Documents"],
    }),
    getBankAccounts: build.query<BankAccountsResponse, void>({
      query: () => ({ url: pathOf("getBankAccounts"), method: "POST", body: {} }),
      providesTags: ["BankAccounts"],
    }),
    addBankAccount: build.mutation<PlatformReply, { body: BankAccount; key: string }>({
      query: exclusive("addBankAccount"),
      invalidatesTags: ["BankAccounts"],
    }),
    deleteBankAccounts: build.mutation<PlatformReply, { body: DeleteBankAccountsRequest; key: string }>({
      query: exclusive("deleteBankAccounts"),
      invalidatesTags: ["BankAccounts"],
    }),
    resetPlayMoney: build.mutation<PlatformReply, { body: Record<string, never>; key: string }>({
      query: exclusive("resetPlayMoneyBalance"),
      invalidatesTags: ["Balance"],
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useUpdatePasswordMutation,
  useGetCountriesQuery,
  useGetDocumentsQuery,
  useGetBankAccountsQuery,
  useAddBankAccountMutation,
  useDeleteBankAccountsMutation,
  useResetPlayMoneyMutation,
} = profileApi;
