package dev.junction.gatling.gateway

import scala.concurrent.duration._

/**
 * Document 001's "Optimal Performance Test" (k6 against `POST /ai/chat/completions`,
 * `openai/gpt-4o-mini`, system message "hi", `max_tokens` 2; constant-arrival-rate 1000/s for
 * 3 s, `preAllocatedVUs` 300, `maxVUs` 1000): 1,227 req/s achieved, 100% success, 441 ms mean,
 * 702 ms p95, 2.45 s max, 8,684 dropped iterations.
 *
 * Properties under `chat.` (see [[ChatCompletionsAtRate]]): `chat.rate` 1000 (smoke 20),
 * `chat.duration` 3 s (the 60 s variant is `-Dchat.duration=60`), `chat.warmUp` 10 s (smoke 0),
 * thresholds `chat.maxMeanMs` 441, `chat.maxP95Ms` 702, `chat.maxMs` 2450 (smoke 5000 all).
 */
class ChatCompletionsConstantRateSimulation
    extends ChatCompletionsAtRate("chat", "chat completions",
      ChatCompletionsAtRate.Defaults(rate = 1000, during = 3.seconds, maxMeanMs = 441, maxP95Ms = 702, maxMs = 2450))
