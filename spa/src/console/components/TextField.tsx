import { TextField as Field, type TextFieldProps } from "../../components/TextField";

/** The shared text field (src/components/TextField.tsx) as the console shows it: each message tested by `<name>-error`. */
export function TextField(props: Omit<TextFieldProps, "control" | "message">) {
  return <Field {...props} message={{ testId: `${props.name}-error` }} />;
}
