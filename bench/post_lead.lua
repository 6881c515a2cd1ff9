-- wrk script: POST /api/leads with a valid auto_credit lead (the same JSON the
-- site's credit form sends). The phone and e-mail differ per request.
local threads = {}
local thread_no = 0
local counter = 0

function setup(thread)
  thread:set("thread_no", #threads)
  table.insert(threads, thread)
end

function init(args)
  thread_no = tonumber(thread_no) or 0
end

local template = '{"type":"auto_credit","name":"Иван Петров","phone":"%s",'
  .. '"email":"client%d.%d@example.ru","desiredAmount":1500000,"monthlyIncome":"120000",'
  .. '"message":"Хочу автокредит на 5 лет, первый взнос 20%%",'
  .. '"sourceUrl":"http://localhost:8080/cars/toyota-camry","carInfo":"Toyota Camry 2025",'
  .. '"carPrice":"3 990 000 ₽","carStatus":"new","consent":true,"advertisingConsent":false,'
  .. '"utmSource":"bench","utmMedium":"wrk","utmCampaign":"load"}'

local headers = { ["Content-Type"] = "application/json" }

function request()
  counter = counter + 1
  -- +7 9T NNNNNNNN: 11 digits, T = thread number, N = this thread's counter
  local phone = string.format("+79%d%08d", thread_no % 10, counter % 100000000)
  local body = string.format(template, phone, thread_no, counter)
  return wrk.format("POST", "/api/leads", headers, body)
end
