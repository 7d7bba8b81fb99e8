import { useState } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { Skin } from "../../api/types";
import { TextField } from "../../components/TextField";
import { useErrorText } from "../../lib/errorText";
import { useFormats } from "../../lib/format";
import { useRevokePlayerMutation } from "./actionsApi";
import { ConfirmedAction } from "./ConfirmedAction";

/**
 * End every gateway session a player has on a skin (their cookies are worthless at once) and refuse
 * their sign-ins for a while; a login with no session (mistyped?) says so, in amber, not as a success.
 */
export function RevokeDialog({ skin, onClose }: { skin: Skin; onClose: () => void }) {
  const { t } = useTranslation("actions");
  const text = useErrorText();
  const format = useFormats();
  const [login, setLogin] = useState("");
  const [shown, setShown] = useState<ConsoleError["fields"]>([]);
  const [revoke] = useRevokePlayerMutation();
  const loginErrors = shown.map(text.field);
  return (
    <ConfirmedAction
      kind="revoke"
      skin={skin}
      onClose={onClose}
      fields={
        <TextField name="login" label={t("revoke.login")} value={login} onValue={setLogin} errors={loginErrors}
                   autoComplete="off" spellCheck={false} data-autofocus />
      }
      check={() => {
        const refused = login.trim() ? [] : [{ field: "login", code: "REQUIRED", message: "" }];
        setShown(refused);
        return refused;
      }}
      run={async (reason) => {
        const answer = await revoke({ skin: skin.id, login: login.trim(), reason });
        if (answer.error) {
          const error = toConsoleError(answer.error);
          setShown(errorsOf(error, "login"));
          return { error };
        }
        const { login: found, sessionsEnded: count, blockedUntil } = answer.data;
        const blocked = blockedUntil ? ` ${t("revoke.blocked", { when: format.dateTime(blockedUntil) })}` : "";
        if (answer.data.found === false) return { done: t("revoke.notFound", { login: found }) + blocked, tone: "warn" };
        return { done: t("revoke.done", { login: found, count }) + blocked };
      }}
    />
  );
}
