package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._
import io.gatling.http.Predef._

import scala.concurrent.duration._

/**
 * Document 000, "Memory Profiling (Leak Detection)": sustained load while RSS is watched; RSS
 * "should stabilize after warmup" (the document's table: ~80 MB base, +2 MB per 100
 * concurrent, no leaks). The bench runner samples the gateway's RSS during the run.
 *
 * Open model: `soak.rate` requests/s (100; smoke 10) for `soak.duration` (120 s; smoke 5 s),
 * a mix of `GET /health` (40%), `system.health` (30%), `test.simulateAI` with
 * `soak.delayMs` (20%; 200) and `ai.generateText` to `generateText.model` (10%).
 * Assertions: no failures; p99 at most `soak.maxP99Ms` (the simulated and upstream delays plus
 * 1000 ms; smoke 5000 more), a bound that only catches a server falling behind.
 */
class MemorySoakSimulation extends Simulation {

  private val rate = Settings.double("soak.rate", 100, 10)
  private val during = Settings.duration("soak.duration", 120.seconds, 5.seconds)
  private val delayMs = Settings.int("soak.delayMs", 200)
  private val upstreamLatencyMs = Settings.int("generateText.upstreamLatencyMs", 1477, 50)
  private val maxP99Ms = Settings.double("soak.maxP99Ms", math.max(delayMs, upstreamLatencyMs) + 1000.0,
    math.max(delayMs, upstreamLatencyMs) + 5000.0)
  private val model = Settings.string("generateText.model", "claude/claude-sonnet-4-5")

  private val mix = randomSwitch(
    40.0 -> exec(http("soak GET /health").get("/health").check(status.is(200))),
    30.0 -> exec(JsonRpc.call("soak system.health", "system.health")),
    20.0 -> exec(JsonRpc.call("soak test.simulateAI", "test.simulateAI", s"""{"delayMs":$delayMs}""")),
    10.0 -> exec(JsonRpc.call("soak ai.generateText", "ai.generateText",
      s"""{"content":"Hey there, nice to meet you","systemPrompt":"default","model":"$model"}""")))

  setUp(Gateway.open("memory soak", mix, rate, during))
    .protocols(Gateway.protocol().shareConnections)
    .assertions(
      global.failedRequests.count.is(0L),
      global.responseTime.percentile(99).lte(Gateway.ms(maxP99Ms)))
}
