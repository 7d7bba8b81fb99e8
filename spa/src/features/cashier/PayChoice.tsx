/** The initials a method without a logo shows: "Perfect Money" -> "PM". */
export function initials(name: string): string {
  const words = name.split(/[\s_-]+/).filter(Boolean);
  return (words.length > 1 ? words.slice(0, 2).map((w) => w[0]) : [name.slice(0, 2)]).join("").toUpperCase();
}

/** A payment method's logo as the platform hands it out (a CMS upload), else its initials. The
 * name beside it says the same, so on a slow network the logos come after the screen's data
 * (low fetch priority), not before the limits and the form. */
export function PayLogo({ src, name }: { src?: string | null; name: string }) {
  if (src) return <img className="pay-logo" src={src} alt="" width={48} height={32} decoding="async" fetchPriority="low" />;
  return (
    <span className="pay-logo pay-logo--initials" aria-hidden="true">
      {initials(name)}
    </span>
  );
}

interface PayChoiceProps {
  /** "tab" for a deposit method, "radio" for one of its ways to pay. */
  role: "tab" | "radio";
  chosen: boolean;
  logo?: string | null;
  name: string;
  testId: string;
  onChoose: () => void;
}

/** One payment method to choose: its logo above its name. */
export function PayChoice({ role, chosen, logo, name, testId, onChoose }: PayChoiceProps) {
  const state = role === "tab" ? { "aria-selected": chosen } : { "aria-checked": chosen };
  return (
    <button type="button" role={role} {...state} className="pay-method" onClick={onChoose} data-testid={testId}>
      <PayLogo src={logo} name={name} />
      <span className="pay-method__name">{name}</span>
    </button>
  );
}
