import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { errorsOf, toConsoleError, type ConsoleError } from "../../api/errors";
import type { Role } from "../../api/types";
import { ErrorNotice } from "../../components/ErrorNotice";
import { TextField } from "../../components/TextField";
import { useFieldText } from "./fieldText";
import { LinkNotice } from "./LinkNotice";
import { useAddOperatorMutation, type Linked } from "./operatorsApi";
import { RoleSelect } from "./RoleSelect";
import { SkinChoices } from "./SkinChoices";

const NAME = /^[a-z0-9._-]{1,64}$/;

/** A new operator: name, role, skins; the answer is a one-time sign-in link to hand them. */
export function AddOperatorForm({ skins }: { skins: string[] }) {
  const { t } = useTranslation("operators");
  const fieldText = useFieldText();
  const [add, { isLoading }] = useAddOperatorMutation();
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("operator");
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [linked, setLinked] = useState<Linked | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = name.trim().toLowerCase();
    if (!NAME.test(typed)) {
      const code = typed ? "NAME_INVALID" : "REQUIRED";
      setProblem({ ...toConsoleError(undefined), status: 422, code: "INVALID", fields: [{ field: "name", code, message: "" }] });
      return;
    }
    const answer = await add({ name: typed, role, skins: chosen });
    if (answer.error) {
      setProblem(toConsoleError(answer.error));
      return;
    }
    setProblem(null);
    setLinked(answer.data);
    setName("");
    setChosen([]);
  }

  return (
    <form className="operator-form" onSubmit={(event) => void submit(event)} noValidate data-testid="add-operator">
      <h2>{t("add.title")}</h2>
      <TextField name="name" label={t("form.name")} value={name} onValue={setName} autoComplete="off"
                 hint={t("form.nameHint")} errors={errorsOf(problem, "name").map(fieldText)} />
      <RoleSelect value={role} onRole={setRole} errors={errorsOf(problem, "role").map(fieldText)} />
      <SkinChoices skins={skins} chosen={chosen} onChosen={setChosen} errors={errorsOf(problem, "skins").map(fieldText)} />
      <ErrorNotice error={problem} shownFields={["name", "role", "skins"]} />
      <button type="submit" className="button button--primary" disabled={isLoading} data-testid="add-operator-submit">
        {t("add.submit")}
      </button>
      {linked && <LinkNotice linked={linked} />}
    </form>
  );
}
