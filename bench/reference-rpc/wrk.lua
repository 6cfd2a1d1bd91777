-- wrk script for bench/rpc-reference.sh: sends BODY (if set) by POST as JSON, and prints one
-- JSON line with the run's figures when done.
local body = os.getenv("BODY")
if body and #body > 0 then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"socket_errors":%d,"non_2xx":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration, errors.connect + errors.read + errors.write + errors.timeout,
    errors.status, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean))
end
