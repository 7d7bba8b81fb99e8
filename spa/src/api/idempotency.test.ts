import { describe, expect, it } from "vitest";

import { IdempotentAction } from "./idempotency";

describe("IdempotentAction", () => {
  it("reuses the key for a retry of the same unanswered action", () => {
    const action = new IdempotentAction();
    const first = action.keyFor({ amount: 1000, method: 326 });
    expect(action.keyFor({ amount: 1000, method: 326 })).toBe(first);
  });

  it("starts a new action once the call answered", () => {
    const action = new IdempotentAction();
    const first = action.keyFor({ amount: 1000 });
    action.settle();
    expect(action.keyFor({ amount: 1000 })).not.toBe(first);
  });

  it("starts a new action when the player changed the form", () => {
    const action = new IdempotentAction();
    const first = action.keyFor({ amount: 1000 });
    expect(action.keyFor({ amount: 2000 })).not.toBe(first);
  });

  it("makes keys the gateway accepts", () => {
    expect(new IdempotentAction().keyFor({})).toMatch(/^[A-Za-z0-9_.:+/=-]{8,128}$/);
  });
});
