"""The Lua scripts behind the Redis store: each one round trip, atomic in Redis.

Leases and records name their holder `<instance>:<random>`; `alive()` asks whether that
instance still listens on its presence channel (`gateway.presence`).
"""

from __future__ import annotations

from gateway import keys

# Stores a result and gives up the lease that guarded its making (if still ours): one round trip.
SET_AND_RELEASE = (
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end return 1"
)
# Whether the instance named by a holder token (`<instance>:<random>`) is alive.
ALIVE = (
    "local function alive(token) local id = string.match(token, '^([^:|]+):') if not id then return false end "
    f"return redis.call('pubsub', 'numsub', '{keys.PRESENCE_CHANNEL}' .. id)[2] > 0 end "
)
# Leads a flight (lease, and the exclusive slot when there is one) or says whom to follow.
# KEYS: lease[, slot]; ARGV: token, ttl ms, flight key, takeover ('1': a dead holder's lease is taken).
LEAD = ALIVE + (
    "if KEYS[2] then local held = redis.call('get', KEYS[2]) if held then "
    "local sep = string.find(held, '|', 1, true) "
    "if sep and string.sub(held, sep + 1) ~= ARGV[3] and alive(string.sub(held, 1, sep - 1)) then "
    "return {'conflict'} end end end "
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
# Claims a record for a new call (the record, and its holder's lease), or reads the existing
# one with whether its holder still lives. KEYS: record, lease; ARGV: record, record ttl, token, lease ttl.
CLAIM = ALIVE + (
    "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[4]) return {1} end "
    "local holder = redis.call('get', KEYS[2]) "
    "if holder == ARGV[3] then return {1} end "  # our own claim: this script ran once already (a client retry)
    "return {0, redis.call('get', KEYS[1]) or '', (holder and alive(holder)) and 1 or 0}"
)
# Gives up a claim (record and lease) while the lease is still ours: its call never went out.
# KEYS: record, lease; ARGV: token.
RELEASE = "if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('del', KEYS[1], KEYS[2]) return 1 end return 0"
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
