import { useCallback, useId, useRef, useState, type ReactNode } from "react";

import { Icon } from "./icons/Icon";
import { useDismiss } from "./useDismiss";

interface DropdownMenuProps {
  label: ReactNode;
  testId: string;
  className?: string;
  /** The entries; each receives `close` to call when it is chosen. */
  children: (close: () => void) => ReactNode;
}

/** A button that opens a list of links under it; closes on a choice, outside click or Escape. */
export function DropdownMenu({ label, testId, className, children }: DropdownMenuProps) {
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
