import { useState } from "react";
import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import { ErrorNotice } from "../../components/ErrorNotice";
import { useFormats } from "../../lib/format";
import { useAllowed } from "../../lib/store/hooks";
import { AddOperatorForm } from "./AddOperatorForm";
import { EditOperatorDialog } from "./EditOperatorDialog";
import { useGetOperatorsQuery, type OperatorAccount } from "./operatorsApi";

/** The admins' view of who may use the console: add an operator, change their role, skins and access. */
export function OperatorsScreen() {
  const { t } = useTranslation("operators");
  const admin = useAllowed("admin");
  const { data, error, isError } = useGetOperatorsQuery(undefined, { skip: !admin });
  const [editing, setEditing] = useState<OperatorAccount | null>(null);
  return (
    <section className="view" aria-labelledby="operators-title" data-testid="operators">
      <div className="view-head">
        <h1 id="operators-title">{t("title")}</h1>
        <p className="view-head__facts">{t("intro")}</p>
      </div>
      {!admin && <p className="notice notice--forbidden" role="alert">{t("adminsOnly")}</p>}
      {isError && <ErrorNotice error={toConsoleError(error)} />}
      {data && !data.managed && <p className="notice notice--warn">{t("unmanaged")}</p>}
      {data && (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="operators-title">
          <table className="operators cards">
            <thead>
              <tr>
                <th scope="col">{t("table.name")}</th>
                <th scope="col">{t("table.role")}</th>
                <th scope="col">{t("table.skins")}</th>
                <th scope="col">{t("table.state")}</th>
                <th scope="col" aria-label={t("table.actions")} />
              </tr>
            </thead>
            <tbody>
              {data.operators.map((account) => (
                <OperatorRow key={account.name} account={account} onEdit={data.managed ? () => setEditing(account) : undefined} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data?.managed && <AddOperatorForm skins={data.skins} />}
      {editing && data && <EditOperatorDialog account={editing} skins={data.skins} onClose={() => setEditing(null)} />}
    </section>
  );
}

function OperatorRow({ account, onEdit }: { account: OperatorAccount; onEdit?: () => void }) {
  const { t } = useTranslation("operators");
  const common = useTranslation().t;
  const format = useFormats();
  const state = account.disabled
    ? t("state.disabled")
    : account.hasPassword
      ? t("state.active")
      : t("state.pending", { when: format.dateTime(account.linkExpiresAt) });
  return (
    <tr data-testid={`operator-${account.name}`}>
      <th scope="row">{account.name}</th>
      <td data-label={t("table.role")}>{common(`roles.${account.role}`)}</td>
      <td data-label={t("table.skins")}>{account.skins.length ? account.skins.join(", ") : t("skinsAll")}</td>
      <td data-label={t("table.state")}>{state}</td>
      <td className="cards__action">
        {onEdit && (
          <button type="button" className="button" onClick={onEdit} data-testid={`edit-${account.name}`}>
            {t("table.edit")}
          </button>
        )}
      </td>
    </tr>
  );
}
