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
    /** Every payment system, deposit and withdraw: the spec writes the call `getPaymentSystems?pgid`, its pgid without a value. */
    getPaymentSystems: build.query<PaymentSystemsResponse, void>({
      query: () => ({ url: "/api/cashier/getPaymentSystems?pgid=", method: "POST", body: {} }),
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
    /** The chosen deposit method's system (limits, currency): `depositSystems?pgid={id}`, its id from getPaymentSystems. */
    getDepositSystem: build.query<PaymentSystemsResponse, number>({
      query: (pgid) => ({ url: `/api/cashier/depositSystems?pgid=${pgid}`, method: "POST", body: {} }),
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
      // Section 4: a cancelled withdrawal reloads the bank account list too.
      invalidatesTags: ["Withdrawals", "Balance", "BankAccounts"],
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
  useGetDepositSystemQuery,
  useGetPaymentMethodsQuery,
  useDepositMutation,
  useDepositStatusMutation,
  useConfirmScanAndPayMutation,
} = cashierApi;
