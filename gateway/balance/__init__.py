"""The balance stream (`GET /bff/events`): one platform balance poll per player, pushed to every
tab the player has open.

Each stream is a `Tab` of its player's `PlayerFeed` in this process. Where a player has tabs, a
poller runs; only the holder of the player's lease asks the platform (once per interval, at once
after the player's money calls and at login), and a balance that changed goes out as a note on
the player's channel, which every process with a tab of that player hears:

- memory mode (`MemoryBus`): the lease is always this process's; notes go straight to the feed;
- Redis mode (`RedisBus`): the lease is a key naming its instance, renewed by the holder and
  taken over by another process with tabs of that player as soon as the holder's instance stops
  listening on its presence channel (a process killed with -9 drops it at once) or its TTL ran
  out; notes go by Redis pub/sub (one subscription connection per process), the newest balance
  and its event id in a hash beside the lease. When the last tab anywhere goes, both keys go.

Session ends (logout, `SESSION_EXPIRED`, an operator's revocation) are notes too: every tab of
that session, on every instance, gets an `end` event and closes.

The package, shaped like Litestar's `channels`:

- `sink`: `BalanceSink`, the one protocol the proxied path (`gateway.pipeline.observe`) tells the
  stream through, and which of its answers the stream reads;
- `feed`: `BalanceFeed`, the stream in this process (what `gateway.edge.events` opens tabs on);
- `tabs`: the open streams of this instance (`Tab`), by player (`PlayerFeed`), and their events;
- `bus`: how notes travel, one protocol (`bus.base.Bus`) and its two backends, `bus.memory`
  (one process) and `bus.redis` (across instances).
"""
