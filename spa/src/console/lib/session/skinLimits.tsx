import { useTranslation } from "react-i18next";

import type { ConsoleSession } from "../../api/types";
import { useConsoleSelector } from "../store/hooks";
import { selectOperator } from "./sessionSlice";

/** Whether the operator may change `skin` (no skins named: every skin); the API checks it again. */
export function mayChangeSkin(operator: ConsoleSession | null | undefined, skin: string): boolean {
  const skins = operator?.skins ?? [];
  return skins.length === 0 || skins.includes(skin);
}

/** The signed-in operator's skin limit: whether they may change a skin, and which they may. */
export function useSkinLimit() {
  const operator = useConsoleSelector(selectOperator);
  return { allows: (skin: string) => mayChangeSkin(operator, skin), skins: operator?.skins ?? [] };
}

/** Said where a skin's controls are left out: the operator may change only other skins. */
export function SkinLimitNote({ skin }: { skin: string }) {
  const { t } = useTranslation("operators");
  const { allows, skins } = useSkinLimit();
  if (allows(skin)) return null;
  return (
    <p className="muted skin__limited" data-testid={`skin-limited-${skin}`}>
      {t("limit.note", { skins: skins.join(", ") })}
    </p>
  );
}
