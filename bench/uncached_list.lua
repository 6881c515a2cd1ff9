-- wrk script: the filtered car list with a different maxPrice on every request,
-- so (almost) every request misses the server's in-memory answer cache and
-- runs the SQLite query and the JSON encoding. Informative only: there is no
-- nginx counterpart, since every answer is different.
local counter = 0
local threads = {}
local thread_no = 0

function setup(thread)
  thread:set("thread_no", #threads)
  table.insert(threads, thread)
end

function init(args)
  thread_no = tonumber(thread_no) or 0
end

function request()
  counter = counter + 1
  -- 1,500,000 .. 3,499,999 rubles, distinct per thread and request
  local price = 1500000 + ((counter * 7919 + thread_no * 1000003) % 2000000)
  return wrk.format("GET",
    "/api/cars/fast?limit=20&status=used&bodyType=crossover&maxPrice=" .. price)
end
