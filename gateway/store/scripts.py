"""The Lua scripts behind the Redis store: each one round trip, atomic in Redis.

Leases and records name their holder `<instance>:<random>`; `alive()` asks whether that
instance still listens on its presence channel (`gateway.state.presence`).
"""

from __future__ import annotations

from gateway.store import keys

# Finishes (or, for '' , abandons: deletes) an idempotency record and gives up its holder's lease
# and exclusive slot while they are still ours: one round trip.
# KEYS: record, lease[, slot]; ARGV: record ('' : deleted), ttl ms, token.
SET_AND_RELEASE = (
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end "
    "if KEYS[3] and redis.call('get', KEYS[3]) == ARGV[3] .. '|' .. KEYS[1] then redis.call('del', KEYS[3]) end "
    "return 1"
)
# Whether the instance named by a holder token (`<instance>:<random>`) is alive.
ALIVE = (
    "local function alive(token) local id = string.match(token, '^([^:|]+):') if not id then return false end "
    f"return redis.call('pubsub', 'numsub', '{keys.PRESENCE_CHANNEL}' .. id)[2] > 0 end "
)
# Whether a live holder of the exclusive slot (`<token>|<flight>`) holds it for another flight (and `alive`).
SLOT_TAKEN = ALIVE + (
    "local function taken(slot, flight) local held = redis.call('get', slot) if not held then return false end "
    "local sep = string.find(held, '|', 1, true) "
    "return sep ~= nil and string.sub(held, sep + 1) ~= flight and alive(string.sub(held, 1, sep - 1)) end "
)
# Leads a flight (lease, and the exclusive slot when there is one) or says whom to follow.
# KEYS: lease[, slot]; ARGV: token, ttl ms, flight key, takeover ('1': a dead holder's lease is taken).
LEAD = SLOT_TAKEN + (
    "if KEYS[2] and taken(KEYS[2], ARGV[3]) then return {'conflict'} end "
    "local holder = redis.call('get', KEYS[1]) "
    "if holder == ARGV[1] then return {'lead'} end "  # our own lease: this script ran once already (a client retry)
    "if holder then if alive(holder) then return {'follow', holder} end "
    "if ARGV[4] ~= '1' then return {'lost', holder} end end "
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if KEYS[2] then redis.call('set', KEYS[2], ARGV[1] .. '|' .. ARGV[3], 'PX', ARGV[2]) end "
    "return {'lead'}"
)
# A follower's look at a flight: its result, 0 (still in flight), or 1 (gone without one).
# KEYS: result, lease; ARGV: the holder's token.
POLL = ALIVE + (
    "local r = redis.call('get', KEYS[1]) if r then return r end "
    "if redis.call('get', KEYS[2]) == ARGV[1] and alive(ARGV[1]) then return 0 end return 1"
)
# A leader lands: its result (unless '' : not shared), its lease and slot given up.
# KEYS: result, lease[, slot]; ARGV: value, ttl ms, token, flight key.
LAND = (
    "if ARGV[1] ~= '' then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end "
    "if KEYS[3] and redis.call('get', KEYS[3]) == ARGV[3] .. '|' .. ARGV[4] then redis.call('del', KEYS[3]) end "
    "return 1"
)
# Claims a record for a new call (the record, its holder's lease, and the session and route's
# exclusive slot, held for the record), or reads the existing one with whether its holder still
# lives, or finds the slot held by another live request. The slot is the one `LEAD` takes for
# exclusive calls without a key. KEYS: record, lease, slot; ARGV: record, record ttl, token, lease ttl.
CLAIM = SLOT_TAKEN + (
    "local holder = redis.call('get', KEYS[2]) "
    "if holder == ARGV[3] then return {'claimed'} end "  # our own claim: this script ran once already (a client retry)
    "local existing = redis.call('get', KEYS[1]) "
    "if existing then return {'exists', existing, (holder and alive(holder)) and 1 or 0} end "
    "if taken(KEYS[3], KEYS[1]) then return {'conflict'} end "
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[4]) "
    "redis.call('set', KEYS[3], ARGV[3] .. '|' .. KEYS[1], 'PX', ARGV[4]) return {'claimed'}"
)
# Gives up a claim (record and lease, and the exclusive slot) while they are still ours: its call
# never went out. KEYS: record, lease[, slot]; ARGV: token.
RELEASE = (
    "local ours = redis.call('get', KEYS[2]) == ARGV[1] if ours then redis.call('del', KEYS[1], KEYS[2]) end "
    "if KEYS[3] and redis.call('get', KEYS[3]) == ARGV[1] .. '|' .. KEYS[1] then redis.call('del', KEYS[3]) end "
    "return ours and 1 or 0"
)
# Replaces a value only while it is still the one we read.
SWAP = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end "
    "return 0"
)
# Takes one of `limit` places in a window, or says how long until one frees.
RESERVE = (
    "local n = tonumber(redis.call('get', KEYS[1]) or '0') "
    "if n >= tonumber(ARGV[1]) then return {0, redis.call('pttl', KEYS[1])} end "
    "n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "return {1, redis.call('pttl', KEYS[1])}"
)
# Gives a place back (never below zero; the window's expiry stays).
GIVE_BACK = "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then redis.call('decr', KEYS[1]) end return 1"
# A fixed-window counter: INCR, and start the window's expiry on the first hit.
HIT = (
    "local n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end "
    "return {n, redis.call('pttl', KEYS[1])}"
)
