-- wrk script: non-streaming OpenAI chat completion with a small body.
-- wrk -t2 -c64 -d15s -s mock-provider/wrk/chat-completions.lua http://127.0.0.1:8090
wrk.method = "POST"
wrk.path = "/v1/chat/completions"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer sk-bench-0000"
wrk.body = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":2}'
