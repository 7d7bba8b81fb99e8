import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { SESSION_EXPIRED } from "../../../api/errors";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { useResetPlayMoneyMutation } from "../profileApi";

/** Back to the starting play money; the player stays on /profile. */
export function PlayMoneyReset() {
  const { t } = useTranslation("profile");
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [reset] = useResetPlayMoneyMutation();
  const { run, busy } = useExclusiveCall(reset);
  async function click() {
    const outcome = await run({});
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) dispatch(showNotice({ kind: "message", text: outcome.message, variant: "error" }));
      return;
    }
    dispatch(showNotice({ kind: "message", text: outcome.data.description || t("playMoney.done"), variant: "success" }));
    void navigate("/profile");
  }
  return (
    <button type="button" className="button button--ghost" disabled={busy} onClick={() => void click()} data-testid="playmoney-reset">
      {t("playMoney.reset")}
    </button>
  );
}
