-- wrk script of bench/memory_walk.sh: a walk over public list URLs that are
-- all different, as a hostile visitor would send to grow the server's memory.
-- Every request is one of four kinds, in turn:
--   0  the attack as found: /api/cars/fast?limit=100&n=<i>&p=<60 KB>
--      (an unknown parameter padded past the URI limit: expect 414)
--   1  a known parameter padded just under the limit, unique per request:
--      /api/cars/fast?limit=100&model=<7 KB> (expect 200, an empty list)
--   2  an unknown short parameter: /api/cars/fast?limit=100&n=<i> (expect 400)
--   3  a real answer of 100 cars, unique per request:
--      /api/cars/fast?limit=100&maxPrice=<varies> (expect 200, ~60 KB)
-- Each thread sends WALK_REQUESTS / WALK_THREADS requests, then stops. The status
-- counts are printed at the end, one line per status: "status <code> <count>".
local threads = {}

function setup(thread)
  thread:set("thread_no", #threads)
  table.insert(threads, thread)
end

local quota, sent, received, counts
local pad_long, pad_known

function init(args)
  thread_no = tonumber(thread_no) or 0
  local total = tonumber(os.getenv("WALK_REQUESTS") or "4000")
  local nthreads = tonumber(os.getenv("WALK_THREADS") or "1")
  quota = math.ceil(total / nthreads)
  sent, received = 0, 0
  counts = {}
  pad_long = string.rep("x", 60 * 1024)
  pad_known = string.rep("m", 7 * 1024)
end

function request()
  sent = sent + 1
  local i = thread_no * 10000000 + sent
  local kind = sent % 4
  local path
  if kind == 0 then
    path = "/api/cars/fast?limit=100&n=" .. i .. "&p=" .. pad_long
  elseif kind == 1 then
    path = "/api/cars/fast?limit=100&model=" .. pad_known .. i
  elseif kind == 2 then
    path = "/api/cars/fast?limit=100&n=" .. i
  else
    path = "/api/cars/fast?limit=100&maxPrice=" .. (3000000 + (i * 7919) % 5000000)
  end
  return wrk.format("GET", path)
end

function response(status, headers, body)
  received = received + 1
  counts[status] = (counts[status] or 0) + 1
  if received % 100 == 0 or received >= quota then
    wrk.thread:set("counts", counts)
  end
  if received == quota then
    -- wrk itself runs for its whole duration: tell bench/memory_walk.sh,
    -- which interrupts it once every thread is done.
    local dir = os.getenv("WALK_DONE_DIR")
    if dir then
      local f = io.open(dir .. "/done." .. thread_no, "w")
      if f then f:close() end
    end
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local c = t:get("counts") or {}
    for status, n in pairs(c) do
      total[status] = (total[status] or 0) + n
    end
  end
  for status, n in pairs(total) do
    io.write(string.format("status %s %d\n", status, n))
  end
end
