import type { HeaderBalance } from "../lib/player/hooks";
import { formatMoney } from "../utils/money";

interface BalanceFigureProps {
  label: string;
  balance: HeaderBalance;
  wallet: "cash" | "bonus";
  testId: string;
}

/** One figure of the real-money wallet (cash or bonus) under its label, in the skin's currency. */
export function BalanceFigure({ label, balance, wallet, testId }: BalanceFigureProps) {
  return (
    <span className="balance-figure">
      <span className="balance-figure__label">{label}</span>
      <span className="balance-figure__value" data-testid={testId} data-loaded={balance.loaded}>
        {formatMoney(balance[wallet], balance.symbol)}
      </span>
    </span>
  );
}
