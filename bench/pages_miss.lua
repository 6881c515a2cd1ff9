-- wrk script for bench/pages.sh: catalogue pages that miss the answer cache.
-- Each request asks /used-cars with a price and a page number no request
-- asked before (the raw price is part of the cache key, though the server
-- rounds it to the slider's 100,000 step for the query), so each is read
-- from SQLite and, with server_render on, drawn in QuickJS.
-- Counts the answers that came back as the bare shell (its own filling
-- `<div id="app"><noscript>` still in place: rendering off, or the rendering
-- queue was full).
local counter = 0
local threads = {}
local thread_no = 0
local bare = 0
local seen = 0

function setup(thread)
  thread:set("thread_no", #threads)
  table.insert(threads, thread)
end

function init(args)
  thread_no = tonumber(thread_no) or 0
end

function request()
  counter = counter + 1
  -- 1,000,000 .. 8,999,999 rubles, distinct per thread and request; pages 1-3
  local price = 1000000 + ((counter * 7919 + thread_no * 1000003) % 8000000)
  local page = 1 + (counter % 3)
  return wrk.format("GET", "/used-cars?price=" .. price .. "&page=" .. page)
end

function response(status, headers, body)
  seen = seen + 1
  if body and string.find(body, '<div id="app"><noscript>', 1, true) then
    bare = bare + 1
  end
end

function done(summary, latency, requests)
  local total_bare, total_seen = 0, 0
  for _, thread in ipairs(threads) do
    total_bare = total_bare + (tonumber(thread:get("bare")) or 0)
    total_seen = total_seen + (tonumber(thread:get("seen")) or 0)
  end
  io.write(string.format("PAGES_BARE %d of %d\n", total_bare, total_seen))
  io.write(string.format("PAGES_P50_US %d\n", latency:percentile(50)))
  io.write(string.format("PAGES_P99_US %d\n", latency:percentile(99)))
end
