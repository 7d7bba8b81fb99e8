import { useGetConfigQuery } from "../config/configApi";
import { useSession } from "../session/useSession";
import { BALANCE_POLL_MS, useGetBalanceQuery, useGetProfileQuery } from "./accountApi";
import { useAppSelector } from "../store/hooks";
import { selectStreaming } from "./streamSlice";
import { realMoneyWallet } from "./wallets";

export interface HeaderBalance {
  loaded: boolean;
  cash: number | undefined;
  bonus: number | undefined;
  symbol: string;
}

/** Cash and bonus of the real-money wallet: pushed by the balance stream while it is healthy,
 * else polled every 10 s while logged in and the tab is visible. */
export function useHeaderBalance(): HeaderBalance {
  const { loggedIn } = useSession();
  const streaming = useAppSelector(selectStreaming);
  const { data: config } = useGetConfigQuery();
  const { data } = useGetBalanceQuery(undefined, {
    skip: !loggedIn,
    pollingInterval: streaming ? 0 : BALANCE_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const currency = config?.skin.currency ?? "";
  const wallet = realMoneyWallet(data, currency);
  return {
    loaded: data !== undefined,
    cash: wallet?.cash.value,
    bonus: wallet?.bonus.value,
    symbol: config?.skin.currencySymbol ?? wallet?.symbol ?? "",
  };
}

/** The name the header and side menu show: the profile's nickname or login, else the session's. */
export function usePlayerName(): string | null {
  const { loggedIn, login } = useSession();
  const { data } = useGetProfileQuery(undefined, { skip: !loggedIn });
  return data?.nickname || data?.login || login;
}

/** The profile's playertype, shown with the player's name (the spec's player display). */
export function usePlayerType(): string | null {
  const { loggedIn } = useSession();
  const { data } = useGetProfileQuery(undefined, { skip: !loggedIn });
  return data?.playertype?.trim() || null;
}
