-- create stores a batch of new calls of one tenant, all or none.
-- KEYS: 1 open, 2 quota, 3 index, then per call: its record, its tool's index.
-- ARGV: 1 now (Unix ms), 2-5 the quotas (tenant calls, tenant bytes,
-- requester calls, requester bytes), 6 grace (ms), 7 the most expired calls
-- to retire, then per call: ID, state, record JSON, entry JSON.
-- Answers {1}, {"exists", ID} or {"quota", of, unit, limit, held}.
local open, quota, index = KEYS[1], KEYS[2], KEYS[3]
local now, grace, bound = tonumber(ARGV[1]), tonumber(ARGV[6]), tonumber(ARGV[7])
local n = (#KEYS - 3) / 2
if not (typeis(open, 'hash') and typeis(quota, 'hash') and typeis(index, 'zset')) then
  return redis.error_reply('TOOLGATE a key of the tenant holds another type')
end
local calls = {}
for i = 1, n do
  local a = 7 + 4 * (i - 1)
  local c = {rec = KEYS[2 + 2 * i], tix = KEYS[3 + 2 * i], id = ARGV[a + 1], state = ARGV[a + 2], json = ARGV[a + 3], raw = ARGV[a + 4]}
  c.e = cjson.decode(c.raw)
  if not (typeis(c.rec, 'hash') and typeis(c.tix, 'zset')) then
    return redis.error_reply('TOOLGATE a key of the call holds another type')
  end
  if redis.call('EXISTS', c.rec) == 1 then
    return {'exists', c.id}
  end
  calls[i] = c
end

-- Retire the expired open calls, oldest first (with one TTL, creation
-- order is expiry order), at most bound of them.
local retired = 0
while retired < bound do
  local head = redis.call('ZRANGE', index, 0, 31)
  if #head == 0 then break end
  local live = false
  for _, m in ipairs(head) do
    local id = string.sub(m, 18)
    local raw = redis.call('HGET', open, id)
    if not raw then
      redis.call('ZREM', index, m)
    else
      local e = cjson.decode(raw)
      if e.e > now then
        live = true
        break
      end
      unindex(open, quota, index, id, e)
    end
    retired = retired + 1
  end
  if live then break end
end

local function held(f)
  return tonumber(redis.call('HGET', quota, f) or '0')
end
local tn, tb, byreq, reqs = 0, 0, {}, {}
for _, c in ipairs(calls) do
  c.counted = isopen(c.state) and c.e.e > now
  if c.counted then
    tn, tb = tn + 1, tb + c.e.z
    if not byreq[c.e.r] then
      byreq[c.e.r] = {0, 0}
      table.insert(reqs, c.e.r)
    end
    byreq[c.e.r][1] = byreq[c.e.r][1] + 1
    byreq[c.e.r][2] = byreq[c.e.r][2] + c.e.z
  end
end
local q = {tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])}
if held('n') + tn > q[1] then return {'quota', 'tenant', 'calls', q[1], held('n')} end
if held('b') + tb > q[2] then return {'quota', 'tenant', 'bytes', q[2], held('b')} end
table.sort(reqs)
for _, r in ipairs(reqs) do
  if held('n' .. r) + byreq[r][1] > q[3] then return {'quota', 'requester', 'calls', q[3], held('n' .. r)} end
  if held('b' .. r) + byreq[r][2] > q[4] then return {'quota', 'requester', 'bytes', q[4], held('b' .. r)} end
end

-- extend makes key live at least until at (Unix ms).
local function extend(key, at)
  local cur = redis.call('PEXPIRETIME', key)
  if cur == -1 or cur < at then
    redis.call('PEXPIREAT', key, at)
  end
end
local last = 0
for _, c in ipairs(calls) do
  local at = c.e.e + grace
  redis.call('HSET', c.rec, 's', c.state, 'd', c.json, 'o', open, 'x', c.tix)
  redis.call('PEXPIREAT', c.rec, at)
  if c.counted then
    redis.call('ZADD', index, 0, c.e.m)
    redis.call('ZADD', c.tix, 0, c.e.m)
    redis.call('HSET', open, c.id, c.raw)
    charge(quota, c.e.r, 1, c.e.z)
    extend(c.tix, at)
    if at > last then last = at end
  end
end
if last > 0 then
  extend(index, last)
  extend(open, last)
  extend(quota, last)
end
return {1}
