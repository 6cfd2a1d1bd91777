package dev.junction.gatling.gateway

import dev.junction.gatling.Settings
import io.gatling.core.Predef._
import io.gatling.http.Predef._

import scala.concurrent.duration._

/**
 * Document 001 (k6 against `POST /ai/chat/completions`, `openai/gpt-4o-mini`, system message
 * "hi", `max_tokens` 2; constant-arrival-rate 1000/s, `preAllocatedVUs` 300, `maxVUs` 1000).
 * "Optimal Performance Test", 1000/s for 3 s: 1,227 req/s achieved, 100% success, 441 ms mean,
 * 702 ms p95, 2.45 s max, 8,684 dropped iterations. Stress test, 5000/s: 512 req/s, 550 ms mean,
 * 1.08 s p95, 8.74 s max, 9,433 dropped.
 *
 * Open model: `chat.rate` arrivals/s (1000; smoke 20; the stress test is `-Dchat.rate=5000`) for
 * `chat.duration` (3 s, the document's short test; smoke 3 s; the 60 s variant is
 * `-Dchat.duration=60`), after `chat.warmUp` ramping up to that rate (10 s; smoke 0), on a shared
 * connection pool, to `chat.path` (`/ai/chat/completions`) with `chat.model`
 * (`emulator/gpt-4o-mini`). Arrivals that find `chat.maxInFlight` (1000, k6's `maxVUs`)
 * requests in flight, or start over 1 s late, are not sent and are counted as unsent (see
 * [[ArrivalGate]]); the counts are printed and written to `chat.unsentFile` when set.
 * Assertions: no failures (100% success); mean at most `chat.maxMeanMs` (441), p95 at most
 * `chat.maxP95Ms` (702) and max at most `chat.maxMs` (2450), the 1000/s figures; smoke 5000 all.
 */
class ChatCompletionsConstantRateSimulation extends Simulation {

  private val rate = Settings.double("chat.rate", 1000, 20)
  private val during = Settings.duration("chat.duration", 3.seconds, 3.seconds)
  private val warmUp = Settings.duration("chat.warmUp", 10.seconds, 0.seconds)
  private val maxInFlight = Settings.int("chat.maxInFlight", 1000)
  private val path = Settings.string("chat.path", "/ai/chat/completions")
  private val model = Settings.string("chat.model", "emulator/gpt-4o-mini")
  private val unsentFile = Settings.string("chat.unsentFile", "")
  private val maxMeanMs = Settings.double("chat.maxMeanMs", 441, 5000)
  private val maxP95Ms = Settings.double("chat.maxP95Ms", 702, 5000)
  private val maxMs = Settings.double("chat.maxMs", 2450, 5000)

  private val Name = "chat completion"

  private val gate = new ArrivalGate(maxInFlight, during, 1.second)

  private def completion(name: String) =
    exec(
      http(name)
        .post(path)
        .body(StringBody(s"""{"model":"$model","messages":[{"role":"system","content":"hi"}],"max_tokens":2}"""))
        .check(status.is(200), jsonPath("$.choices[0].message").exists))

  private val warmUpLoad = Option.when(warmUp.toMillis > 0)(
    Gateway.openWarmUp("chat completions warm-up", completion(Gateway.WarmUp), rate, warmUp))

  after(gate.report("chat completions", unsentFile))

  setUp(Gateway.afterWarmUp(warmUpLoad, Gateway.open("chat completions", gate.guard(completion(Name)), rate, during)))
    .protocols(Gateway.protocol().shareConnections)
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(maxMeanMs)),
      details(Name).responseTime.percentile(95).lte(Gateway.ms(maxP95Ms)),
      details(Name).responseTime.max.lte(Gateway.ms(maxMs)))
}
