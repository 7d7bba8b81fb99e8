import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import { moneyCall } from "../../api/idempotency";
import type { WithdrawRoute } from "./withdrawForms";
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
      query: () => ({ url: `${pathOf("getPaymentSystems")}?pgid=`, method: "POST", body: {} }),
    }),
    getCashOutInfo: build.query<CashOutInfo, number>({
      query: (pgid) => ({ url: `${pathOf("getCashOutInfo")}?pgid=${pgid}`, method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getWageringInfo: build.query<WageringInfo, void>({
      query: () => ({ url: pathOf("getPlayerWageringInfo"), method: "POST", body: {} }),
      providesTags: ["Balance"],
    }),
    getOpenWithdrawals: build.query<OpenWithdrawalsResponse, void>({
      query: () => ({ url: pathOf("getOpenWithdrawRequests"), method: "POST", body: {} }),
      providesTags: ["Withdrawals"],
    }),
    /** Every withdrawal form posts to its own route; all answer a WithdrawResponse. */
    withdraw: build.mutation<WithdrawResponse, { route: WithdrawRoute; body: unknown; key: string }>({
      query: ({ route, body, key }) => moneyCall(route)({ body, key }),
      invalidatesTags: ["Withdrawals", "Balance"],
    }),
    /** The chosen deposit method's system (limits, currency): `depositSystems?pgid={id}`, its id from getPaymentSystems. */
    getDepositSystem: build.query<PaymentSystemsResponse, number>({
      query: (pgid) => ({ url: `${pathOf("depositSystems")}?pgid=${pgid}`, method: "POST", body: {} }),
    }),
    getPaymentMethods: build.query<PaymentMethodsResponse, void>({
      query: () => ({ url: pathOf("getPaymentMethods"), method: "POST", body: {} }),
    }),
    deposit: build.mutation<DepositResponse, { body: Record<string, unknown>; key: string }>({
      query: moneyCall("buy"),
    }),
    /** The polled status of a deposit (not cached: each check asks the platform). */
    depositStatus: build.mutation<PostbackStatus, string>({
      query: (sid) => ({ url: pathOf("depositCallBackStatus"), method: "POST", body: { sid } }),
      invalidatesTags: (result) => (result?.status === "[PaymentOperationStatus: Approved]" ? ["Balance"] : []),
    }),
    confirmScanAndPay: build.mutation<TransactionDetail, { body: TransactionDetailRequest; key: string }>({
      query: moneyCall("depositCallBack"),
    }),
    cancelWithdrawal: build.mutation<PlatformReply, { body: CancelWithdrawRequest; key: string }>({
      query: moneyCall("cancelWithdrawRequest"),
      // A cancelled withdrawal reloads the bank account list too.
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
