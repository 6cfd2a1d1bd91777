package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._

/**
 * Document 000, "Server Overhead Test": `system.health` on `POST /rpc`, "Expected: <5ms
 * response time"; the endpoint table gives 4.5 ms average for it.
 *
 * `rpcHealth.requests` (1000; smoke 50) one after another (`rpcHealth.concurrency` 1), as the
 * document's single curl measured, after `rpcHealth.warmUpRequests` (2000; smoke 0).
 * Assertions: no failures; mean at most `rpcHealth.maxMeanMs` (4.5, the table) and p95 at
 * most `rpcHealth.maxP95Ms` (5, "expected <5ms"); smoke 1000 both.
 */
class JsonRpcHealthSimulation extends Simulation {

  private val requests = Settings.int("rpcHealth.requests", 1000, 50)
  private val concurrency = Settings.int("rpcHealth.concurrency", 1)
  private val warmUpRequests = Settings.int("rpcHealth.warmUpRequests", 2000, 0)
  private val maxMeanMs = Settings.double("rpcHealth.maxMeanMs", 4.5, 1000)
  private val maxP95Ms = Settings.double("rpcHealth.maxP95Ms", 5, 1000)

  private val Name = s"system.health c$concurrency"

  private def call(name: String) = exec(JsonRpc.call(name, "system.health"))

  setUp(Gateway.closedAfterWarmUp("system.health", call, Name, requests, concurrency, warmUpRequests))
    .protocols(Gateway.protocol())
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(maxMeanMs)),
      details(Name).responseTime.percentile(95).lte(Gateway.ms(maxP95Ms)))
}
