import { api } from "../../api/baseApi";
import { pathOf } from "../../api/routes";
import type {
  GameHistoryRequest,
  GameHistoryResponse,
  RemoteGamesResponse,
  TransactionHistoryRequest,
  TransactionHistoryResponse,
} from "../../api/contracts.gen";

/** The histories are read on demand (the Show button): lazy queries, fetched afresh each time. */
export const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    transactionHistory: build.query<TransactionHistoryResponse, TransactionHistoryRequest>({
      query: (body) => ({ url: pathOf("transactionHistory"), method: "POST", body }),
      keepUnusedDataFor: 0,
    }),
    gameHistory: build.query<GameHistoryResponse, GameHistoryRequest>({
      query: (body) => ({ url: pathOf("gameHistory"), method: "POST", body }),
      keepUnusedDataFor: 0,
    }),
    remoteGamesHistory: build.query<RemoteGamesResponse, GameHistoryRequest>({
      query: (body) => ({ url: pathOf("remoteGamesHistory"), method: "POST", body }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyTransactionHistoryQuery, useLazyGameHistoryQuery, useLazyRemoteGamesHistoryQuery } = historyApi;
