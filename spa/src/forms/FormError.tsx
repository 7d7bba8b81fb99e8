/** A form's own message (a refusal from the platform), read out when it appears. */
export function FormError({ text, testId }: { text: string | null; testId?: string }) {
  if (!text) return null;
  return (
    <p className="field__error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}
