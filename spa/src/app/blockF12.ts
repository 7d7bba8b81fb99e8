/** The F12 key is blocked: the key press is swallowed before the page or
 * the browser acts on it; the browser's menus still open the developer tools. */
export function blockF12(target: Pick<Window, "addEventListener" | "removeEventListener">): () => void {
  const swallow = (event: KeyboardEvent) => {
    if (event.key === "F12") {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  target.addEventListener("keydown", swallow, { capture: true });
  return () => target.removeEventListener("keydown", swallow, { capture: true });
}
