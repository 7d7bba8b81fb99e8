import type { SerializedError } from "@reduxjs/toolkit";
import type { FetchBaseQueryError } from "@reduxjs/toolkit/query";
import { useState } from "react";

import { toConsoleError, type ConsoleError } from "../api/errors";
import type { Applied, Deferred, Override, Preview } from "../api/types";
import { reasonValid } from "./rules";

type Answer<T> = { data: T; error?: undefined } | { data?: undefined; error: FetchBaseQueryError | SerializedError };

/** The calls of one versioned write: a change of upstream, or a rollback. */
export interface WriteCalls {
  preview: (baseVersion: string) => Promise<Answer<Preview>>;
  /** Applied now, or (202) kept for later: scheduled for a time, or waiting for a second operator. */
  apply: (baseVersion: string, reason: string, override: Override | null) => Promise<Answer<Applied | Deferred>>;
}

export interface WriteFlow {
  /** The configuration version the operator saw; the write names it, a stale one is a 409. */
  baseVersion: string;
  preview: Preview | null;
  applied: Applied | Deferred | null;
  problem: ConsoleError | null;
  reason: string;
  /** Apply although the platform's check failed: ticked, and why (null: not overridden). */
  override: Override | null;
  busy: "preview" | "apply" | null;
  setReason: (reason: string) => void;
  setOverride: (override: Override | null) => void;
  runPreview: () => Promise<void>;
  runApply: () => Promise<void>;
  /** After a 409 (or a stale preview): the version now current becomes the base; the edit stays. */
  restart: (current: string) => void;
  /** The edit changed: the preview no longer describes it. */
  discardPreview: () => void;
}

/**
 * A previewed change of upstream started as a canary instead of applied (issue 38): what it
 * changes, and the write's flow whose reason, override and base version it shares.
 */
export interface CanaryChoice {
  skin: string;
  upstream: string;
  url: string;
  flow: WriteFlow;
  /** Back to the change (its preview and its Apply). */
  onBack: () => void;
  onClose: () => void;
}

const reasonRefused = (field: string): ConsoleError => ({
  ...toConsoleError(undefined),
  status: 422,
  code: "INVALID",
  fields: [{ field, code: "REASON_TOO_SHORT", message: "" }],
});

/** Whether every new base URL of a preview speaks the platform (a preview without checks: nothing to say). */
export const speaksPlatform = (preview: Preview | null): boolean =>
  (preview?.checks ?? (preview?.check ? [preview.check] : [])).every((check) => check.ok);

/** Edit -> preview -> reason -> apply -> live, or a conflict to start again from; nothing is lost on an error. */
export function useWriteFlow(initialBase: string, calls: WriteCalls): WriteFlow {
  const [baseVersion, setBaseVersion] = useState(initialBase);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [applied, setApplied] = useState<Applied | Deferred | null>(null);
  const [problem, setProblem] = useState<ConsoleError | null>(null);
  const [reason, setReason] = useState("");
  const [override, setOverride] = useState<Override | null>(null);
  const [busy, setBusy] = useState<WriteFlow["busy"]>(null);

  async function runPreview() {
    setBusy("preview");
    const answer = await calls.preview(baseVersion);
    setBusy(null);
    setPreview(answer.data ?? null);
    setProblem(answer.error ? toConsoleError(answer.error) : null);
  }

  async function runApply() {
    if (!reasonValid(reason)) {
      setProblem(reasonRefused("reason"));
      return;
    }
    // An override is only sent while the preview says the check failed.
    const overriding = speaksPlatform(preview) ? null : override;
    if (overriding && !reasonValid(overriding.reason)) {
      setProblem(reasonRefused("override.reason"));
      return;
    }
    setBusy("apply");
    const answer = await calls.apply(baseVersion, reason.trim(), overriding && { reason: overriding.reason.trim() });
    setBusy(null);
    setApplied(answer.data ?? null);
    setProblem(answer.error ? toConsoleError(answer.error) : null);
  }

  function restart(current: string) {
    setBaseVersion(current);
    setPreview(null);
    setProblem(null);
  }

  function discardPreview() {
    setPreview(null);
    setProblem(null);
    setOverride(null);
  }

  return {
    baseVersion, preview, applied, problem, reason, override, busy,
    setReason, setOverride, runPreview, runApply, restart, discardPreview,
  };
}
