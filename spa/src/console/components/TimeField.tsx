import { useTranslation } from "react-i18next";

import { timeExample } from "../lib/typedTime";
import { TextField } from "./TextField";

interface TimeFieldProps {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** It was typed and could not be read (`typedRange`'s `unread`). */
  unread: boolean;
  /** Its other errors, translated (e.g. the gateway's 422). */
  errors?: string[];
}

/** A filter's time (the trail's, the timeline's): typed as the console's language writes it, in
 * UTC (`lib/typedTime`); its placeholder and hint say how, and one not read says how again. */
export function TimeField({ name, label, value, onValue, unread, errors = [] }: TimeFieldProps) {
  const { t, i18n } = useTranslation();
  const example = timeExample(i18n.resolvedLanguage ?? i18n.language);
  return (
    <TextField name={name} label={label} value={value} onValue={onValue} autoComplete="off" inputMode="numeric"
               placeholder={example} hint={t("time.hint")}
               errors={[...(unread ? [t("time.written", { example })] : []), ...errors]} />
  );
}
