import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { Role } from "../../api/types";
import { ConsoleDialog } from "../../components/ConsoleDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { useFieldText } from "./fieldText";
import { LinkNotice } from "./LinkNotice";
import {
  useChangeOperatorMutation,
  useEndSessionsMutation,
  useNewLinkMutation,
  type Linked,
  type OperatorAccount,
  type OperatorEdit,
} from "./operatorsApi";
import { RoleSelect } from "./RoleSelect";
import { SkinChoices } from "./SkinChoices";

interface EditOperatorDialogProps {
  account: OperatorAccount;
  skins: string[];
  onClose: () => void;
}

/** One operator's role, skins and access; their sessions ended; a new sign-in link. */
export function EditOperatorDialog({ account, skins, onClose }: EditOperatorDialogProps) {
  const { t } = useTranslation("operators");
  const fieldText = useFieldText();
  const [change, changing] = useChangeOperatorMutation();
  const [endSessions] = useEndSessionsMutation();
  const [newLink] = useNewLinkMutation();
  const [role, setRole] = useState<Role>(account.role);
  const [chosen, setChosen] = useState<string[]>(account.skins);
  const [disabled, setDisabled] = useState(account.disabled);
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [linked, setLinked] = useState<Linked | null>(null);

  function edit(): OperatorEdit {
    const sameSkins = [...chosen].sort().join(",") === [...account.skins].sort().join(",");
    return {
      name: account.name,
      ...(role !== account.role ? { role } : {}),
      ...(sameSkins ? {} : { skins: chosen }),
      ...(disabled !== account.disabled ? { disabled } : {}),
    };
  }

  function settle(answer: { error?: Parameters<typeof toConsoleError>[0] }, text: string) {
    setProblem(answer.error ? toConsoleError(answer.error) : null);
    setDone(answer.error ? null : text);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const asked = edit();
    if (Object.keys(asked).length === 1) return onClose();
    settle(await change(asked), t("edit.saved", { name: account.name }));
  }

  async function link() {
    const answer = await newLink(account.name);
    settle(answer, t("edit.linked"));
    if (answer.data) setLinked(answer.data);
  }

  return (
    <ConsoleDialog title={t("edit.title", { name: account.name })} onClose={onClose} testId="edit-operator">
      <form onSubmit={(event) => void save(event)} noValidate>
        <RoleSelect value={role} onRole={setRole} errors={errorsOf(problem, "role").map(fieldText)} />
        <SkinChoices skins={skins} chosen={chosen} onChosen={setChosen} errors={errorsOf(problem, "skins").map(fieldText)} />
        <div className={errorsOf(problem, "disabled").length ? "field field--invalid" : "field"}>
          <label className="skin-choices__item">
            <input type="checkbox" name="disabled" checked={disabled} onChange={(e) => setDisabled(e.target.checked)}
                   data-testid="operator-disabled" />
            {t("edit.disabled")}
          </label>
          <p className="field__hint">{t("edit.disabledHint")}</p>
          {errorsOf(problem, "disabled").length > 0 && (
            <p className="field__error" data-testid="disabled-error">{errorsOf(problem, "disabled").map(fieldText).join(" ")}</p>
          )}
        </div>
        <ErrorNotice error={problem} shownFields={["role", "skins", "disabled"]} />
        {done && <p className="notice notice--ok" role="status" data-testid="operator-done">{done}</p>}
        {linked && <LinkNotice linked={linked} />}
        <div className="dialog-actions">
          <button type="button" className="button" data-testid="end-sessions"
                  onClick={() => void endSessions(account.name).then((a) => settle(a, t("edit.ended", { name: account.name })))}>
            {t("edit.endSessions")}
          </button>
          <button type="button" className="button" onClick={() => void link()} data-testid="new-link">
            {t("edit.newLink")}
          </button>
          <button type="submit" className="button button--primary" disabled={changing.isLoading} data-testid="save-operator">
            {t("edit.save")}
          </button>
        </div>
      </form>
    </ConsoleDialog>
  );
}
