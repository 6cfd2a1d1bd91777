package dev.junction.gatling.gateway

import dev.junction.gatling.Settings
import io.gatling.core.Predef._
import io.gatling.core.structure.ChainBuilder
import io.gatling.http.Predef._
import io.gatling.http.protocol.HttpProtocolBuilder

import scala.concurrent.duration._

/**
 * Document 003 (Bifrost): the gateway's overhead per request at 5000 req/s, 59 µs on 2 vCPUs
 * (11 µs on 4), 100% success; monitoring table: response time normally "provider + 50 µs",
 * alert at "provider + 500 µs".
 *
 * Two open-model scenarios side by side, at `overhead.rate` arrivals/s each (1000; smoke 20;
 * the document's load is `-Doverhead.rate=5000`) for `overhead.duration` (30 s; smoke 5 s),
 * after `overhead.warmUp` ramping up to that rate (10 s; smoke 0): the same chat completion
 * (`{"messages":[{"role":"user","content":"hi"}],"max_tokens":2}`) through the gateway
 * (`gateway.url`, model `overhead.model`, `emulator/gpt-4o-mini`) and straight to the emulator
 * (`provider.url`, model `overhead.providerModel`, `gpt-4o-mini`). Their requests are named
 * `chat completion via gateway` and `chat completion direct`; the bench runner subtracts them
 * percentile by percentile. The gateway's response cache must be off.
 * Assertions: no failures on either; through the gateway, p50 at most the emulator's latency
 * `overhead.upstreamLatencyMs` (60, what the bench runner starts it with; smoke 0) plus
 * `overhead.maxAddedP50Ms` (1: the document's "provider + 50 µs" rounded up to Gatling's
 * millisecond resolution; smoke 1000). Gatling's assertions cannot subtract one request's
 * percentile from another's, and the tail of the direct requests alone is several milliseconds
 * above the emulator's latency on a shared machine, so the higher percentiles are compared
 * pairwise by the bench runner rather than asserted here.
 */
class GatewayOverheadSimulation extends Simulation {

  private val rate = Settings.double("overhead.rate", 1000, 20)
  private val during = Settings.duration("overhead.duration", 30.seconds, 5.seconds)
  private val warmUp = Settings.duration("overhead.warmUp", 10.seconds, 0.seconds)
  private val model = Settings.string("overhead.model", "emulator/gpt-4o-mini")
  private val providerModel = Settings.string("overhead.providerModel", "gpt-4o-mini")
  private val upstreamLatencyMs = Settings.int("overhead.upstreamLatencyMs", 60, 0)
  private val maxAddedP50Ms = Settings.double("overhead.maxAddedP50Ms", 1, 1000)

  private val ViaGateway = "chat completion via gateway"
  private val Direct = "chat completion direct"

  private def completion(name: String, path: String, model: String) =
    exec(
      http(name)
        .post(path)
        .body(StringBody(s"""{"model":"$model","messages":[{"role":"user","content":"hi"}],"max_tokens":2}"""))
        .check(status.is(200), jsonPath("$.choices[0].message").exists))

  private def load(label: String, chain: String => ChainBuilder, protocol: HttpProtocolBuilder) =
    Gateway.afterWarmUp(
      Option.when(warmUp.toMillis > 0)(
        Gateway.openWarmUp(s"$label warm-up", chain(s"${Gateway.WarmUp} $label"), rate, warmUp).protocols(protocol)),
      Gateway.open(label, chain(s"chat completion $label"), rate, during).protocols(protocol))

  setUp(
    load("via gateway", completion(_, "/v1/chat/completions", model), Gateway.protocol().shareConnections),
    load("direct", completion(_, "/v1/chat/completions", providerModel), Gateway.providerProtocol.shareConnections))
    .assertions(
      details(ViaGateway).failedRequests.count.is(0L),
      details(Direct).failedRequests.count.is(0L),
      details(ViaGateway).responseTime.percentile(50).lte(Gateway.ms(upstreamLatencyMs + maxAddedP50Ms)))
}
