import { useCallback, useId, useRef, useState, type ReactNode } from "react";

import { Icon } from "./icons/Icon";
import { useDismiss } from "./useDismiss";

interface DropdownMenuProps {
  label: ReactNode;
  /** The button's accessible name when its label is an icon only. */
  ariaLabel?: string;
  testId: string;
  className?: string;
  /** The entries; each receives `close` to call when it is chosen. */
  children: (close: () => void) => ReactNode;
}

/** A button that opens a list of links under it; closes on a choice, outside click or Escape. */
export function DropdownMenu({ label, ariaLabel, testId, className, children }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  return (
    <div ref={root} className={className ? `dropdown ${className}` : "dropdown"}>
      <button
        type="button"
        className="dropdown__button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={ariaLabel}
        data-testid={testId}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        <Icon name="chevron" size={16} />
      </button>
      <div id={menuId} className="dropdown__menu" hidden={!open}>
        {children(close)}
      </div>
    </div>
  );
}
