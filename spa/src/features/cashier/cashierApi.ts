import { api } from "../../api/baseApi";
import { moneyCall } from "../../api/idempotency";
import type {
  CancelWithdrawRequest,
  CashOutInfo,
  DepositResponse,
  PaymentMethodsResponse,
  PostbackStatus,
  TransactionDetail,
  TransactionDetailRequest,
  OpenWithdrawalsResponse,
  PaymentSystemsResponse,
  PlatformReply,
  WageringInfo,
  WithdrawResponse,
} from "../../api/contracts.gen";

export const cashierApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentSystems: build.query<PaymentSystemsResponse, void>({
      query: () => ({ url: "/api/cashier/getPaymentSystems", method: "POST", body: {} }),
    }),
    getCashOutInfo: build.query<CashOutInfo, number>({
      query: (pgid) => ({ url: `/api/cashier/getCashOutInfo?pgid=${pgid}`, method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getWageringInfo: build.query<WageringInfo, void>({
      query: () => ({ url: "/api/player/getPlayerWageringInfo", method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getOpenWithdrawals: build.query<OpenWithdrawalsResponse, void>({
      query: () => ({ url: "/api/cashier/getOpenWithdrawRequests", method: "POST", body: {} }),
      providesTags: ["Withdrawals"],
    }),
    /** Every withdrawal form posts to its own path; all answer a WithdrawResponse. */
    withdraw: build.mutation<WithdrawResponse, { path: string; body: unknown; key: string }>({
      query: ({ path, body, key }) => moneyCall(path)({ body, key }),
      invalidatesTags: ["Withdrawals", "Balance"],
    }),
    getDepositSystems: build.query<PaymentSystemsResponse, void>({
      query: () => ({ url: "/api/cashier/depositSystems", method: "POST", body: {} }),
    }),
    getPaymentMethods: build.query<PaymentMethodsResponse, void>({
      query: () => ({ url: "/api/cashier/getPaymentMethods", method: "POST", body: {} }),
    }),
    deposit: build.mutation<DepositResponse, { body: Record<string, unknown>; key: string }>({
      query: moneyCall("/api/cashier/buy"),
    }),
    /** The polled status of a deposit (not cached: each check asks the platform). */
    depositStatus: build.mutation<PostbackStatus, string>({
      query: (sid) => ({ url: "/api/cashier/depositCallBackStatus", method: "POST", body: { sid } }),
      invalidatesTags: (result) => (result?.status === "[PaymentOperationStatus: Approved]" ? ["Balance"] : []),
    }),
    confirmScanAndPay: build.mutation<TransactionDetail, { body: TransactionDetailRequest; key: string }>({
      query: moneyCall("/api/cashier/depositCallBack"),
    }),
    cancelWithdrawal: build.mutation<PlatformReply, { body: CancelWithdrawRequest; key: string }>({
      query: moneyCall("/api/cashier/cancelWithdrawRequest"),
      invalidatesTags: ["Withdrawals", "Balance"],
    }),
  }),
});

export const {
  useGetPaymentSystemsQuery,
  useGetCashOutInfoQuery,
  useGetWageringInfoQuery,
  useGetOpenWithdrawalsQuery,
  useWithdrawMutation,
  useCancelWithdrawalMutation,
  useGetDepositSystemsQuery,
  useGetPaymentMethodsQuery,
  useDepositMutation,
  useDepositStatusMutation,
  useConfirmScanAndPayMutation,
} = cashierApi;
