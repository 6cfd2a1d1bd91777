package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._
import io.gatling.http.Predef._

/**
 * Document 000, "Load Test - Health Endpoint": `ab -n 1000 -c 100 http://localhost:8000/health`,
 * 3128 requests/s, 31.97 ms per request (mean) at concurrency 100, no failures.
 *
 * Closed model like ab's: `health.concurrency` users (100; smoke 10) share `health.requests`
 * (1000; smoke 100), each on its own keep-alive connection (ab without `-k` reconnects every
 * time). `health.warmUpRequests` (5000; smoke 0) go first, under another name.
 * Assertions: no failures; mean at most `health.maxMeanMs` (31.97, ab's "Time per request
 * (mean)"; smoke 1000). Requests per second follow as concurrency / mean.
 */
class HealthSimulation extends Simulation {

  private val requests = Settings.int("health.requests", 1000, 100)
  private val concurrency = Settings.int("health.concurrency", 100, 10)
  private val warmUpRequests = Settings.int("health.warmUpRequests", 5000, 0)
  private val maxMeanMs = Settings.double("health.maxMeanMs", 31.97, 1000)

  private val Name = s"GET /health c$concurrency"

  private def health(name: String) =
    exec(http(name).get("/health").check(status.is(200), jsonPath("$.status").is("UP")))

  setUp(Gateway.closedAfterWarmUp("health", health, Name, requests, concurrency, warmUpRequests))
    .protocols(Gateway.protocol())
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(maxMeanMs)))
}
