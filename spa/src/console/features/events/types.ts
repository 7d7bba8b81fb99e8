/** GET /admin/api/events: the cluster's timeline, newest first. */
export interface TimelineEntry {
  id: string;
  kind: string;
  at: string;
  by: string;
  skin: string | null;
  upstream: string | null;
  instance: string | null;
  /** When what this entry ends began (an upstream's "down at" on its "back" entry). */
  since: string | null;
  detail: string | null;
}

export interface Timeline {
  kept: "redis" | "memory";
  entries: TimelineEntry[];
}

/** The timeline's filters as the URL keeps them: epoch seconds, a skin's id. */
export interface TimelineFilters {
  skin?: string;
  since?: string;
  until?: string;
}
