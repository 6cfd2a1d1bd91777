package dev.junction.gatling.gateway

import dev.junction.gatling.Settings
import io.gatling.core.Predef._
import io.gatling.http.Predef._

import scala.concurrent.duration._

/**
 * Document 001's k6 test shape (`POST chat.path` with `chat.model`, system message "hi",
 * `max_tokens` 2) as an open model at a constant arrival rate, with every parameter read from
 * properties under `prefix`: `rate`, `duration`, `warmUp` (a ramp up to the rate before the
 * measured window), `maxInFlight` (k6's `maxVUs`, in the warm-up too: arrivals that find that
 * many requests in flight, or start over 1 s late, are not sent and, in the measured window,
 * are counted as unsent, see [[ArrivalGate]]),
 * `unsentFile` (where the counts are written), and the thresholds `maxMeanMs`, `maxP95Ms`,
 * `maxMs`. The path and model are shared by both tests: `chat.path` (`/ai/chat/completions`),
 * `chat.model` (`emulator/gpt-4o-mini`). Assertions: no failures (100% success) and the three
 * thresholds.
 */
abstract class ChatCompletionsAtRate(prefix: String, label: String, defaults: ChatCompletionsAtRate.Defaults)
    extends Simulation {

  private def key(name: String) = s"$prefix.$name"

  private val rate = Settings.double(key("rate"), defaults.rate, 20)
  private val during = Settings.duration(key("duration"), defaults.during, 3.seconds)
  private val warmUp = Settings.duration(key("warmUp"), 10.seconds, 0.seconds)
  private val maxInFlight = Settings.int(key("maxInFlight"), 1000)
  private val unsentFile = Settings.string(key("unsentFile"), "")
  private val maxMeanMs = Settings.double(key("maxMeanMs"), defaults.maxMeanMs, 5000)
  private val maxP95Ms = Settings.double(key("maxP95Ms"), defaults.maxP95Ms, 5000)
  private val maxMs = Settings.double(key("maxMs"), defaults.maxMs, 5000)
  private val path = Settings.string("chat.path", "/ai/chat/completions")
  private val model = Settings.string("chat.model", "emulator/gpt-4o-mini")

  private val Name = "chat completion"

  private val gate = new ArrivalGate(maxInFlight, during, 1.second)

  private def completion(name: String) =
    exec(
      http(name)
        .post(path)
        .body(StringBody(s"""{"model":"$model","messages":[{"role":"system","content":"hi"}],"max_tokens":2}"""))
        .check(status.is(200), jsonPath("$.choices[0].message").exists))

  // k6's maxVUs holds for the whole test, the ramp included: the warm-up has its own gate.
  private val warmUpLoad = Option.when(warmUp.toMillis > 0)(
    Gateway.openWarmUp(s"$label warm-up",
      new ArrivalGate(maxInFlight, warmUp, 1.second).guard(completion(Gateway.WarmUp)), rate, warmUp))

  after(gate.report(label, unsentFile))

  setUp(Gateway.afterWarmUp(warmUpLoad, Gateway.open(label, gate.guard(completion(Name)), rate, during)))
    .protocols(Gateway.protocol().shareConnections)
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(maxMeanMs)),
      details(Name).responseTime.percentile(95).lte(Gateway.ms(maxP95Ms)),
      details(Name).responseTime.max.lte(Gateway.ms(maxMs)))
}

object ChatCompletionsAtRate {

  /** The document's load and its figures, the defaults of a test's properties. */
  final case class Defaults(rate: Double, during: FiniteDuration, maxMeanMs: Double, maxP95Ms: Double, maxMs: Double)
}
