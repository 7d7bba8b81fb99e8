import type { KeyboardEvent } from "react";

function allowOnly(pattern: RegExp) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    // Only printable single characters are filtered: Backspace, arrows, Tab and shortcuts pass.
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!pattern.test(event.key)) event.preventDefault();
  };
}

/** Usernames: letters and digits only (no accents or spaces). */
export const lettersAndDigitsOnly = allowOnly(/^[A-Za-z0-9]$/);
/** Phone numbers and other numeric fields. */
export const digitsOnly = allowOnly(/^[0-9]$/);
