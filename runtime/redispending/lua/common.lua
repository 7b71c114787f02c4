-- The helpers of every script that writes. A tenant's keys: open (a hash
-- of its open calls: pending ID -> entry), quota (its counters: "n" and
-- "b" for the tenant, "n" and "b" followed by a requester's field for the
-- requester), index (a sorted set of its open calls' cursors). An entry is
-- JSON: e (ExpiresAt, Unix ms), z (size), r (requester field), m (cursor),
-- x (the tool's index key), k (the record key).

-- typeis reports whether key is missing or of type want.
local function typeis(key, want)
  local t = redis.call('TYPE', key)['ok']
  return t == 'none' or t == want
end

-- charge adds calls and bytes to the counters of the tenant and of the
-- requester with field r, dropping a pair that comes to zero calls.
local function charge(quota, r, calls, bytes)
  for _, f in ipairs({'', r}) do
    local n = redis.call('HINCRBY', quota, 'n' .. f, calls)
    redis.call('HINCRBY', quota, 'b' .. f, bytes)
    if n <= 0 then
      redis.call('HDEL', quota, 'n' .. f, 'b' .. f)
    end
  end
end

-- unindex stops counting the open call id with entry e.
local function unindex(open, quota, index, id, e)
  redis.call('ZREM', index, e.m)
  redis.call('ZREM', e.x, e.m)
  redis.call('HDEL', open, id)
  charge(quota, e.r, -1, -e.z)
end

-- isopen reports whether a state holds its place in the quotas.
local function isopen(s)
  return s == 'pending' or s == 'approved'
end
