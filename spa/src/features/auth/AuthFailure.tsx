/** The form's refusal, read out when it appears. */
export function AuthFailure({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="auth-form__error" role="alert" data-testid="auth-error">
      {text}
    </p>
  );
}
