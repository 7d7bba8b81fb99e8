import type { BalanceResponse, WalletEntry } from "../../api/contracts.gen";

/** Wallets that are not real money: play money and VIP points. */
export const PLAYMONEY = "PLAYMONEY";
export const COMPPOINTS = "COMPPOINTS";

/** The real-money wallet: the skin's currency if listed, else the preferred one, else the first. */
export function realMoneyWallet(balance: BalanceResponse | undefined, currency: string): WalletEntry | undefined {
  const real = (balance?.values ?? []).filter((w) => w.wallet.name !== PLAYMONEY && w.wallet.name !== COMPPOINTS);
  return real.find((w) => w.wallet.name === currency) ?? real.find((w) => w.preferred) ?? real[0];
}
