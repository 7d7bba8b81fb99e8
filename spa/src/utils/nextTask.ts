/**
 * Resolves in a task of its own, so the work after it does not extend the current task: a
 * phone's main thread gets to paint and answer input in between (`scheduler.yield()` where the
 * browser has it, which resumes ahead of other queued work; a timeout elsewhere).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
