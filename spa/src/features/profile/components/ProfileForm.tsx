import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { Profile } from "../../../api/contracts.gen";
import { SESSION_EXPIRED } from "../../../api/errors";
import { contractRules } from "../../../api/rules.gen";
import { useExclusiveCall } from "../../../api/useExclusiveCall";
import { FormError } from "../../../forms/FormError";
import { FormFields, type FieldSpec } from "../../../forms/FormFields";
import { SelectField } from "../../../forms/SelectField";
import { digitsOnly } from "../../../forms/keys";
import { useForm, useFormMessage } from "../../../forms/useForm";
import { useAppDispatch } from "../../../lib/store/hooks";
import { showNotice } from "../../../lib/store/uiSlice";
import { useGetCountriesQuery, useUpdateProfileMutation } from "../profileApi";

/** The player's details (nickname, email, name, phone, address), sent as one update. */
export function ProfileForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const { t } = useTranslation("profile");
  const tf = useTranslation("forms").t;
  const formMessage = useFormMessage();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [update] = useUpdateProfileMutation();
  const { run, busy } = useExclusiveCall(update);
  const form = useForm(contractRules.forms.profileUpdate, {
    nickname: profile.nickname || profile.login || "",
    email: profile.email ?? "",
    firstName: profile.firstName ?? "",
    lastName: profile.lastName ?? "",
    city: profile.address?.city ?? "",
    phone: profile.address?.phone ?? "",
    country: profile.address?.country ?? "",
  });
  const [failure, setFailure] = useState<string | null>(null);
  const fields: FieldSpec<keyof typeof form.values>[] = [
    { name: "nickname", label: tf("labels.login"), readOnly: true },
    { name: "email", label: tf("labels.email"), type: "email", autoComplete: "email" },
    { name: "firstName", label: t("fields.firstName"), autoComplete: "given-name", maxLength: 16 },
    { name: "lastName", label: t("fields.lastName"), autoComplete: "family-name", maxLength: 16 },
    { name: "phone", label: t("details.phone"), type: "tel", inputMode: "numeric", autoComplete: "tel", keys: digitsOnly, maxLength: 12 },
    { name: "city", label: t("fields.city"), autoComplete: "address-level2" },
  ];
  const countries = useGetCountriesQuery().data?.countries ?? [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.touchAll();
    if (!form.valid) return;
    const v = form.values;
    const outcome = await run({
      nickname: String(v.nickname),
      email: String(v.email).trim().toLowerCase(),
      firstName: String(v.firstName).trim(),
      lastName: String(v.lastName).trim(),
      address: { city: String(v.city).trim(), phone: String(v.phone), country: String(v.country).trim() },
    });
    if (!outcome) return;
    if (!outcome.ok) {
      if (outcome.code !== SESSION_EXPIRED) setFailure(formMessage(outcome.message));
      return;
    }
    onDone();
    dispatch(showNotice({ kind: "message", text: outcome.data.description || t("modal.saved"), variant: "success" }));
    void navigate("/profile");
  }

  return (
    <form className="profile-form" noValidate onSubmit={(event) => void submit(event)}>
      <FormFields form={form} fields={fields} onFocus={() => setFailure(null)} />
      <SelectField
        name="country"
        label={t("fields.country")}
        placeholder={t("fields.countryChoose")}
        autoComplete="country-name"
        value={String(form.values.country)}
        options={countries.map((country) => ({ value: country.code, label: country.name }))}
        error={form.errors.country}
        onValue={(value) => form.set("country", value)}
        onBlur={() => form.touch("country")}
        onFocus={() => setFailure(null)}
      />
      <FormError text={failure} />
      <button type="submit" className="button button--primary" disabled={!form.valid || busy} data-testid="profile-save">
        {busy ? t("actions.saving") : t("actions.save")}
      </button>
    </form>
  );
}
