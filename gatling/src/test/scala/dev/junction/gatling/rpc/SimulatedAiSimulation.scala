package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._

/**
 * Document 000, "Load Test - Simulated AI Delay": `test.simulateAI` (1.5 s) on `POST /rpc`,
 * `ab -n 100 -c 10`: 6.04 requests/s, 1504 ms mean (1500 ms delay + 4 ms), 1508 ms max, no
 * failures; and "100 concurrent: server handles 66 req/sec with 1.5s latency".
 *
 * Two closed-model phases, one after the other: `simulateAi.requests` (100; smoke 20) at
 * concurrency `simulateAi.concurrency` (10; smoke 5), then the same number at concurrency
 * `simulateAi.highConcurrency` (100; smoke 20). Each call asks for `simulateAi.delayMs`
 * (1500, the gateway's default and the document's; smoke 100).
 * Assertions, as overhead over the delay: no failures; at concurrency 10, mean at most
 * `simulateAi.maxMeanOverheadMs` (4: 1504 - 1500) and max at most `simulateAi.maxOverheadMs`
 * (8: 1508 - 1500); at concurrency 100, mean at most `simulateAi.highMaxMeanOverheadMs`
 * (15.15: 100 users / 66 req/s = 1515.15 ms per request); smoke 1000 all.
 */
class SimulatedAiSimulation extends Simulation {

  private val requests = Settings.int("simulateAi.requests", 100, 20)
  private val concurrency = Settings.int("simulateAi.concurrency", 10, 5)
  private val highConcurrency = Settings.int("simulateAi.highConcurrency", 100, 20)
  private val delayMs = Settings.int("simulateAi.delayMs", 1500, 100)
  private val maxMeanOverheadMs = Settings.double("simulateAi.maxMeanOverheadMs", 4, 1000)
  private val maxOverheadMs = Settings.double("simulateAi.maxOverheadMs", 8, 1000)
  private val highMaxMeanOverheadMs = Settings.double("simulateAi.highMaxMeanOverheadMs", 15.15, 1000)

  private val Low = s"test.simulateAI c$concurrency"
  private val High = s"test.simulateAI c$highConcurrency"

  private def call(name: String) = exec(JsonRpc.call(name, "test.simulateAI", s"""{"delayMs":$delayMs}"""))

  setUp(
    Gateway.closed(Low, call(Low), requests, concurrency)
      .andThen(Gateway.closed(High, call(High), requests, highConcurrency)))
    .protocols(Gateway.protocol())
    .assertions(
      details(Low).failedRequests.count.is(0L),
      details(Low).responseTime.mean.lte(Gateway.ms(delayMs + maxMeanOverheadMs)),
      details(Low).responseTime.max.lte(Gateway.ms(delayMs + maxOverheadMs)),
      details(High).failedRequests.count.is(0L),
      details(High).responseTime.mean.lte(Gateway.ms(delayMs + highMaxMeanOverheadMs)))
}
