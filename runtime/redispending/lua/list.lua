-- list reads a page of open calls from an index, oldest first.
-- KEYS: 1 the index (the tenant's or a tool's), 2 open.
-- ARGV: 1 the cursor after which the page starts ("" for the first), 2 the
-- page's size, 3 now (Unix ms), 4 the most index members to read.
-- Answers the next page's cursor ("" on the last page), then the records
-- of the page's calls.
local index, open = KEYS[1], KEYS[2]
local limit, now, bound = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local from = '-'
if ARGV[1] ~= '' then from = '(' .. ARGV[1] end
local out, found, scanned = {''}, 0, 0
while true do
  local chunk = redis.call('ZRANGE', index, from, '+', 'BYLEX', 'LIMIT', 0, 64)
  if #chunk == 0 then return out end
  for _, m in ipairs(chunk) do
    if found == limit or scanned == bound then
      out[1] = string.sub(from, 2)
      return out
    end
    scanned = scanned + 1
    from = '(' .. m
    local raw = redis.call('HGET', open, string.sub(m, 18))
    if raw then
      local e = cjson.decode(raw)
      if e.e > now then
        local r = redis.call('HMGET', e.k, 's', 'd')
        if isopen(r[1]) and r[2] then
          table.insert(out, r[2])
          found = found + 1
        end
      end
    end
  end
end
