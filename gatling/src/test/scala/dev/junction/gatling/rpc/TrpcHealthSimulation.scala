package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._
import io.gatling.http.Predef._

/**
 * Document 000, "tRPC Procedure Resolution Test": `curl http://localhost:8000/trpc/admin.healthCheck`,
 * "Expected: <10ms response time"; the endpoint table gives 2.1 ms average.
 *
 * The gateway serves tRPC queries as `GET /trpc/<procedure>` and answers
 * `{"result":{"data":...}}`; `admin.healthCheck` needs an admin key (`gateway.adminKey`) and
 * checks the calculator afresh on every call. `trpcHealth.requests` (1000; smoke 50) one
 * after another (`trpcHealth.concurrency` 1), after `trpcHealth.warmUpRequests` (2000; smoke 0).
 * Assertions: no failures; mean at most `trpcHealth.maxMeanMs` (2.1, the table) and p95 at most
 * `trpcHealth.maxP95Ms` (10, "expected <10ms"); smoke 1000 both.
 */
class TrpcHealthSimulation extends Simulation {

  private val requests = Settings.int("trpcHealth.requests", 1000, 50)
  private val concurrency = Settings.int("trpcHealth.concurrency", 1)
  private val warmUpRequests = Settings.int("trpcHealth.warmUpRequests", 2000, 0)
  private val maxMeanMs = Settings.double("trpcHealth.maxMeanMs", 2.1, 1000)
  private val maxP95Ms = Settings.double("trpcHealth.maxP95Ms", 10, 1000)

  private val Name = s"admin.healthCheck c$concurrency"

  private def call(name: String) =
    exec(http(name).get("/trpc/admin.healthCheck").check(status.is(200), jsonPath("$.result.data.status").exists))

  setUp(Gateway.closedAfterWarmUp("admin.healthCheck", call, Name, requests, concurrency, warmUpRequests))
    .protocols(Gateway.protocol(Gateway.adminKey))
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(maxMeanMs)),
      details(Name).responseTime.percentile(95).lte(Gateway.ms(maxP95Ms)))
}
