package dev.junction.gatling.gateway

import scala.concurrent.duration._

/**
 * Document 001's stress test (the same k6 request, constant-arrival-rate 5000/s for 3 s): 512
 * req/s achieved, 100% success, 550 ms mean, 1.08 s p95, 8.74 s max, 9,433 dropped iterations;
 * document 003 asks for 100% success at 5,000 requests/s.
 *
 * Properties under `chatStress.` (see [[ChatCompletionsAtRate]]): `chatStress.rate` 5000 (smoke
 * 20), `chatStress.duration` 3 s, `chatStress.warmUp` 10 s (smoke 0), `chatStress.maxInFlight`
 * 1000, thresholds `chatStress.maxMeanMs` 550, `chatStress.maxP95Ms` 1080, `chatStress.maxMs`
 * 8740 (smoke 5000 all). Path and model are `chat.path` and `chat.model`.
 */
class ChatCompletionsStressSimulation
    extends ChatCompletionsAtRate("chatStress", "chat completions stress",
      ChatCompletionsAtRate.Defaults(rate = 5000, during = 3.seconds, maxMeanMs = 550, maxP95Ms = 1080, maxMs = 8740))
