import { describe, expect, it } from "vitest";

import { accountApi } from "./accountApi";
import {
  BalanceStream,
  DROP_WINDOW_MS,
  RETRY_MS,
  type Note,
  type StreamChannel,
  type StreamDeps,
  type StreamSink,
  type StreamSource,
} from "./balanceStream";
import { selectStreaming, streamHealth } from "./streamSlice";
import { makeTestStore } from "../../test/render";

const BALANCE = { values: [{ wallet: { name: "INR" }, symbol: "Bs.", cash: { value: 500 }, bonus: { value: 0 } }] };

/** An EventSource the test drives: what the BFF would send, or how the connection fails. */
class FakeSource implements StreamSource {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  send(type: string, data: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
    }
  }
  /** A dropped connection (the EventSource reconnects) or a refusal (it stays closed). */
  fail(refused: boolean): void {
    this.readyState = refused ? 2 : 0;
    this.onerror?.(new Event("error"));
  }
}

/** BroadcastChannel between the browser's tabs: a message reaches every other tab. */
class Hub {
  members: FakeChannel[] = [];
}

class FakeChannel implements StreamChannel {
  onmessage: ((event: MessageEvent<Note>) => void) | null = null;
  constructor(private readonly hub: Hub) {
    hub.members.push(this);
  }
  postMessage(note: Note): void {
    for (const other of this.hub.members) if (other !== this) other.onmessage?.(new MessageEvent("message", { data: note }));
  }
  close(): void {
    this.hub.members = this.hub.members.filter((m) => m !== this);
  }
}

/** Web Locks: the first to ask leads; when it lets go, the next waiting tab does. */
class Locks {
  private queue: { lead: () => Promise<void>; signal: AbortSignal }[] = [];
  private held = false;
  request(lead: () => Promise<void>, signal: AbortSignal): void {
    this.queue.push({ lead, signal });
    this.next();
  }
  private next(): void {
    if (this.held) return;
    const waiting = this.queue.shift();
    if (!waiting) return;
    if (waiting.signal.aborted) return this.next();
    this.held = true;
    void waiting.lead().then(() => {
      this.held = false;
      this.next();
    });
  }
}

class Browser {
  hub = new Hub();
  locks = new Locks();
  sources: FakeSource[] = [];
  timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  clock = 0;

  tab(): { stream: BalanceStream; sink: RecordingSink } {
    const sink = new RecordingSink();
    const deps: StreamDeps = {
      open: () => {
        const source = new FakeSource();
        this.sources.push(source);
        return source;
      },
      channel: () => new FakeChannel(this.hub),
      elect: (lead, signal) => this.locks.request(lead, signal),
      now: () => this.clock,
      later: (run, ms) => {
        const timer = { run, ms, cancelled: false };
        this.timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
    };
    const stream = new BalanceStream(deps, sink);
    stream.start();
    return { stream, sink };
  }

  get source(): FakeSource {
    const newest = this.sources.at(-1);
    if (!newest) throw new Error("no stream was opened");
    return newest;
  }
}

class RecordingSink implements StreamSink {
  balances: unknown[] = [];
  streaming = false;
  ends: string[] = [];
  answered: number[] = [];
  balance(data: unknown): void {
    this.balances.push(data);
  }
  realityAnswered(check: number): void {
    this.answered.push(check);
  }
  healthy(streaming: boolean): void {
    this.streaming = streaming;
  }
  ended(reason: string): void {
    this.ends.push(reason);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the browser's one balance stream", () => {
  it("is opened by one tab only, and what it hears reaches every tab", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    const follower = browser.tab();
    await settle();
    expect(browser.sources).toHaveLength(1);

    browser.source.open();
    browser.source.send("balance", BALANCE);

    for (const tab of [leader, follower]) {
      expect(tab.sink.balances).toEqual([BALANCE]);
      expect(tab.sink.streaming).toBe(true);
    }
  });

  it("tells every tab that the session's reality check was answered", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    const follower = browser.tab();
    await settle();
    browser.source.open();

    browser.source.send("reality", { answered: 2 });

    expect(leader.sink.answered).toEqual([2]);
    expect(follower.sink.answered).toEqual([2]);
  });

  it("gives a tab opened later the newest balance at once", async () => {
    const browser = new Browser();
    browser.tab();
    await settle();
    browser.source.open();
    browser.source.send("balance", BALANCE);

    const late = browser.tab();
    expect(late.sink.balances).toEqual([BALANCE]);
    expect(late.sink.streaming).toBe(true);
  });

  it("passes to another tab when the leading tab closes", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    const follower = browser.tab();
    await settle();
    browser.source.open();

    leader.stream.stop();
    await settle();

    expect(browser.sources).toHaveLength(2);
    expect(browser.sources[0]?.closed).toBe(true);
    browser.source.open();
    browser.source.send("balance", BALANCE);
    expect(follower.sink.balances).toEqual([BALANCE]);
  });

  it("goes back to polling when the stream is refused, and tries it again later", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    const follower = browser.tab();
    await settle();

    browser.source.fail(true); // 503 STREAMS_FULL, 401, a Redis outage: EventSource gives up

    expect(leader.sink.streaming).toBe(false);
    expect(follower.sink.streaming).toBe(false);
    expect(browser.timers.map((t) => t.ms)).toEqual([RETRY_MS[0]]);
    browser.timers[0]?.run();
    expect(browser.sources).toHaveLength(2);
    browser.source.open();
    expect(follower.sink.streaming).toBe(true);
  });

  it("goes back to polling when the stream keeps dropping", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    await settle();
    const source = browser.source;
    source.open();

    source.fail(false);
    expect(leader.sink.streaming).toBe(false);
    source.open(); // EventSource reconnected by itself
    expect(leader.sink.streaming).toBe(true);
    browser.clock += DROP_WINDOW_MS / 4;
    source.fail(false);
    source.open();
    expect(source.closed).toBe(false);
    browser.clock += DROP_WINDOW_MS / 4;
    source.fail(false);

    expect(source.closed).toBe(true);
    expect(leader.sink.streaming).toBe(false);
    expect(browser.timers).toHaveLength(1);
  });

  it("ends the session in every tab when the BFF ends the stream", async () => {
    const browser = new Browser();
    const leader = browser.tab();
    const follower = browser.tab();
    await settle();
    browser.source.open();

    browser.source.send("end", { reason: "logout" });

    expect(leader.sink.ends).toEqual(["logout"]);
    expect(follower.sink.ends).toEqual(["logout"]);
    expect(follower.sink.streaming).toBe(false);
    expect(browser.source.closed).toBe(true);
    expect(browser.timers).toEqual([]); // not tried again: the session is over
  });
});

describe("the stream in the store", () => {
  it("fills the balance entry the header reads", async () => {
    const store = makeTestStore();
    await store.dispatch(accountApi.util.upsertQueryData("getBalance", undefined, BALANCE as never));
    expect(accountApi.endpoints.getBalance.select()(store.getState()).data).toEqual(BALANCE);
  });

  it("says whether the header may stop polling", () => {
    const store = makeTestStore();
    expect(selectStreaming(store.getState())).toBe(false);
    store.dispatch(streamHealth(true));
    expect(selectStreaming(store.getState())).toBe(true);
  });
});
