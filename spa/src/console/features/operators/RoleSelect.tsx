import { useId } from "react";
import { useTranslation } from "react-i18next";

import type { Role } from "../../api/types";

const ROLES: Role[] = ["viewer", "operator", "admin"];

/** A role, each named in the console's language. */
export function RoleSelect({ value, onRole, errors = [] }: { value: Role; onRole: (role: Role) => void; errors?: string[] }) {
  const { t } = useTranslation();
  const texts = useTranslation("operators").t;
  const id = useId();
  return (
    <div className={errors.length ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={id}>
        {texts("form.role")}
      </label>
      <select id={id} name="role" value={value} onChange={(event) => onRole(event.target.value as Role)}
              aria-invalid={errors.length ? true : undefined} aria-describedby={errors.length ? `${id}-error` : undefined}>
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`roles.${role}`)}
          </option>
        ))}
      </select>
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field__error" data-testid="role-error">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
