import { vi } from "vitest";

import { openAuth } from "../../lib/store/uiSlice";
import { makeTestStore, renderWithProviders } from "../../test/render";
import AuthPopup from "./AuthPopup";

/** The BFF answering POST <path> with the JSON given for it; records the bodies sent. */
export function stubPlatform(answers: Record<string, unknown>) {
  const sent: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: Request) => {
      const path = new URL(input.url).pathname;
      const text = input.method === "POST" ? await input.text() : "";
      sent.push({ path, body: text ? JSON.parse(text) : null });
      return Response.json(answers[path] ?? { message: "not found" }, { status: path in answers ? 200 : 404 });
    }),
  );
  return sent;
}

export function openPopup(tab: "login" | "forgot" | "register" = "login") {
  const store = makeTestStore();
  store.dispatch(openAuth(tab));
  renderWithProviders(<AuthPopup />, { store });
  return store;
}

export const field = (name: string) => document.querySelector<HTMLInputElement>(`[data-testid=auth-popup] input[name=${name}]`)!;

