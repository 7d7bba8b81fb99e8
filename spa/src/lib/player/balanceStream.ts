/**
 * The balance pushed by the BFF (`GET /bff/events`), one stream per browser.
 *
 * Browsers allow about six connections per origin over HTTP/1.1, so the tabs share one stream:
 * the tab holding the `bff-events` Web Lock leads (opens the EventSource) and passes what it
 * hears to the others over a BroadcastChannel; when it closes, the lock passes to another tab,
 * which opens the stream in turn. While the stream is healthy the header does not poll; when it
 * is refused (a non-200 answer closes an EventSource) or keeps dropping, the tabs go back to the
 * spec's 10 s polling, silently, and the stream is tried again later.
 */

export const STREAM_URL = "/bff/events";
export const CHANNEL_NAME = "bff-events";
/** A stream that dropped this many times within `DROP_WINDOW_MS` is given up for a while. */
export const MAX_DROPS = 3;
export const DROP_WINDOW_MS = 60_000;
/** How long after giving up the stream is tried again (doubling, up to the last). */
export const RETRY_MS = [30_000, 60_000, 120_000, 300_000] as const;

export interface StreamSource {
  readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export interface StreamChannel {
  onmessage: ((event: MessageEvent<Note>) => void) | null;
  postMessage(note: Note): void;
  close(): void;
}

/** What the stream tells the page: the balance entry, whether polling may stop, the session's
 * reality check answered (in any tab, on any instance), a session's end. */
export interface StreamSink {
  balance(data: unknown): void;
  realityAnswered(check: number): void;
  healthy(streaming: boolean): void;
  ended(reason: string): void;
}

export type Note =
  | { type: "balance"; data: unknown }
  | { type: "health"; streaming: boolean }
  | { type: "end"; reason: string }
  | { type: "reality"; answered: number }
  | { type: "hello" };

export interface StreamDeps {
  open(url: string): StreamSource;
  channel(): StreamChannel | null;
  /** Calls `lead` once this tab holds the leadership; it is held until the promise settles. */
  elect(lead: () => Promise<void>, signal: AbortSignal): void;
  now(): number;
  later(run: () => void, ms: number): () => void;
}

const CLOSED = 2;

export class BalanceStream {
  private source: StreamSource | null = null;
  private channel: StreamChannel | null = null;
  private leading = false;
  private streaming = false;
  private last: unknown = undefined;
  private drops: number[] = [];
  private retries = 0;
  private cancelRetry: (() => void) | null = null;
  private resign: (() => void) | null = null;
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: StreamDeps,
    private readonly sink: StreamSink,
  ) {}

  start(): void {
    this.channel = this.deps.channel();
    if (this.channel) this.channel.onmessage = (event) => this.heard(event.data);
    this.channel?.postMessage({ type: "hello" });
    this.deps.elect(() => this.lead(), this.abort.signal);
  }

  stop(): void {
    this.abort.abort();
    this.closeSource();
    this.cancelRetry?.();
    this.resign?.();
    this.channel?.close();
    this.channel = null;
  }

  private lead(): Promise<void> {
    if (this.abort.signal.aborted) return Promise.resolve();
    this.leading = true;
    this.connect();
    return new Promise((resolve) => {
      this.resign = resolve;
    });
  }

  private connect(): void {
    this.cancelRetry = null;
    const source = this.deps.open(STREAM_URL);
    this.source = source;
    source.onopen = () => {
      this.retries = 0;
      this.setStreaming(true);
    };
    source.addEventListener("balance", (event) => {
      const data: unknown = JSON.parse(event.data);
      this.last = data;
      this.setStreaming(true);
      this.sink.balance(data);
      this.post({ type: "balance", data });
    });
    source.addEventListener("reality", (event) => {
      const { answered } = JSON.parse(event.data) as { answered: number };
      this.sink.realityAnswered(answered);
      this.post({ type: "reality", answered });
    });
    source.addEventListener("end", (event) => {
      const { reason } = JSON.parse(event.data) as { reason: string };
      this.closeSource();
      this.setStreaming(false);
      this.post({ type: "end", reason });
      this.sink.ended(reason);
    });
    source.onerror = () => this.dropped(source);
  }

  /** An EventSource reconnects by itself after a drop; a refusal (non-200) leaves it closed. */
  private dropped(source: StreamSource): void {
    if (source !== this.source) return;
    this.setStreaming(false);
    const now = this.deps.now();
    this.drops = [...this.drops.filter((at) => now - at < DROP_WINDOW_MS), now];
    if (source.readyState === CLOSED || this.drops.length >= MAX_DROPS) {
      this.closeSource();
      this.drops = [];
      const wait = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)] ?? RETRY_MS[0];
      this.retries += 1;
      this.cancelRetry = this.deps.later(() => this.connect(), wait);
    }
  }

  private heard(note: Note): void {
    if (note.type === "hello") {
      if (this.leading) {
        this.post({ type: "health", streaming: this.streaming });
        if (this.last !== undefined && this.streaming) this.post({ type: "balance", data: this.last });
      }
    } else if (note.type === "balance") {
      this.sink.healthy(true);
      this.sink.balance(note.data);
    } else if (note.type === "health") {
      this.sink.healthy(note.streaming);
    } else if (note.type === "reality") {
      this.sink.realityAnswered(note.answered);
    } else {
      this.sink.healthy(false);
      this.sink.ended(note.reason);
    }
  }

  private setStreaming(streaming: boolean): void {
    if (this.streaming === streaming) return;
    this.streaming = streaming;
    this.sink.healthy(streaming);
    this.post({ type: "health", streaming });
  }

  private post(note: Note): void {
    this.channel?.postMessage(note);
  }

  private closeSource(): void {
    this.source?.close();
    this.source = null;
  }
}

/** The browser's own: EventSource, BroadcastChannel, and Web Locks (without them every tab leads). */
export function browserDeps(): StreamDeps {
  return {
    open: (url) => new EventSource(url, { withCredentials: true }),
    channel: () => (typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(CHANNEL_NAME)),
    elect: (lead, signal) => {
      const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
      if (!locks) {
        void lead();
        return;
      }
      locks.request(CHANNEL_NAME, { signal }, lead).catch(() => undefined); // aborted: this tab left
    },
    now: () => Date.now(),
    later: (run, ms) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    },
  };
}
