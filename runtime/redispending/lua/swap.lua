-- swap replaces a call by its next version if its state is the expected one.
-- KEYS: 1 the record, 2 open, 3 quota, 4 index, 5 the tool's index.
-- ARGV: 1 ID, 2 the expected state, 3 the next state, 4 the next record
-- JSON, 5 the next size, 6 the write's token (kept in "w", so that a
-- writer whose answer was lost can tell its write landed). Answers 1 (swapped), 0 (another state), -1 (no
-- such call).
local rec = KEYS[1]
if not typeis(rec, 'hash') then
  return redis.error_reply('TOOLGATE the record holds another type')
end
local cur = redis.call('HMGET', rec, 's', 'o', 'x')
if not cur[1] then return -1 end
if cur[1] ~= ARGV[2] then return 0 end
if cur[2] ~= KEYS[2] or cur[3] ~= KEYS[5] then
  return redis.error_reply('TOOLGATE the next version of the call has another tenant or tool')
end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
local e = raw and cjson.decode(raw)
redis.call('HSET', rec, 's', ARGV[3], 'd', ARGV[4], 'w', ARGV[6])
if e then
  if isopen(ARGV[3]) then
    local z = tonumber(ARGV[5])
    charge(KEYS[3], e.r, 0, z - e.z)
    e.z = z
    redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(e))
  else
    unindex(KEYS[2], KEYS[3], KEYS[4], ARGV[1], e)
  end
end
return 1
