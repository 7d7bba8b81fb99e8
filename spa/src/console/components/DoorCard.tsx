import type { ReactNode } from "react";

import { LanguagePicker } from "./LanguagePicker";

/** The card of the console's doors (signing in, a sign-in link's page): a title, the language, what they ask. */
export function DoorCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <main className="signin" data-testid={testId}>
      <div className="signin__card">
        <div className="signin__head">
          <h1>{title}</h1>
          <LanguagePicker />
        </div>
        {children}
      </div>
    </main>
  );
}
