package dev.junction.gatling.gateway

import dev.junction.gatling.Settings
import io.gatling.core.Predef._
import io.gatling.core.structure.{ChainBuilder, PopulationBuilder}
import io.gatling.http.Predef._
import io.gatling.http.protocol.HttpProtocolBuilder

import scala.concurrent.duration.FiniteDuration

/**
 * HTTP protocols and load shapes shared by the gateway's simulations.
 *
 * Keys: `gateway.apiKey` is sent as `Authorization: Bearer <key>` on every gateway request
 * (none by default: the gateway needs no key unless `junction.gateway.auth.keys` is set);
 * `gateway.adminKey` is the key for admin procedures (`admin.healthCheck`).
 */
object Gateway {

  /** Gateway API key (`gateway.apiKey`); empty sends no `Authorization` header. */
  def apiKey: String = Settings.string("gateway.apiKey", "")

  /** Admin key (`gateway.adminKey`), needed by `admin.healthCheck`. */
  def adminKey: String = Settings.string("gateway.adminKey", "")

  /** The gateway at `gateway.url`, JSON in and out, with `key` as bearer token if not empty. */
  def protocol(key: String = apiKey): HttpProtocolBuilder = bearer(json(Settings.gatewayUrl), key)

  /** The provider emulator at `provider.url`, with `provider.apiKey` (default `sk-bench`) as bearer token. */
  def providerProtocol: HttpProtocolBuilder = bearer(json(Settings.providerUrl), Settings.string("provider.apiKey", "sk-bench"))

  private def json(baseUrl: String): HttpProtocolBuilder =
    http
      .baseUrl(baseUrl)
      .acceptHeader("application/json")
      .contentTypeHeader("application/json")
      // Gatling's default warm-up calls https://gatling.io; every target here is on loopback.
      .disableWarmUp

  private def bearer(protocol: HttpProtocolBuilder, key: String): HttpProtocolBuilder =
    if (key.isEmpty) protocol else protocol.authorizationHeader(s"Bearer $key")

  /**
   * A closed model as `ab -n requests -c concurrency` runs it: `concurrency` users, each sending
   * its share of `requests` back to back on its own keep-alive connection. The simulations end
   * their request names in the concurrency (`GET /health c100`), so throughput can be read from a
   * report as concurrency / mean, as ab computes it.
   */
  def closed(name: String, chain: ChainBuilder, requests: Int, concurrency: Int): PopulationBuilder = {
    val users = math.max(1, math.min(concurrency, requests))
    val perUser = math.max(1, math.ceil(requests.toDouble / users).toInt)
    scenario(name).repeat(perUser)(chain).inject(atOnceUsers(users))
  }

  /**
   * An open model as k6's constant-arrival-rate runs it: `rate` new requests per second for
   * `during`, whether or not earlier ones have finished, on a shared connection pool.
   */
  def open(name: String, chain: ChainBuilder, rate: Double, during: FiniteDuration): PopulationBuilder =
    scenario(name).exec(chain).inject(constantUsersPerSec(rate).during(during))

  /**
   * A warm-up for an open model: arrivals ramping from a tenth of `rate` to `rate` over `during`,
   * so that cold JVMs (services and Gatling's own) are not met with the full rate at once.
   */
  def openWarmUp(name: String, chain: ChainBuilder, rate: Double, during: FiniteDuration): PopulationBuilder =
    scenario(name).exec(chain).inject(rampUsersPerSec(math.max(1.0, rate / 10)).to(rate).during(during))

  /**
   * [[closed]] load of `requests` named `requestName`, preceded, when `warmUpRequests` is
   * positive, by that many at the same concurrency named [[WarmUp]].
   */
  def closedAfterWarmUp(name: String, call: String => ChainBuilder, requestName: String, requests: Int,
      concurrency: Int, warmUpRequests: Int): PopulationBuilder =
    afterWarmUp(
      Option.when(warmUpRequests > 0)(closed(s"$name warm-up", call(WarmUp), warmUpRequests, concurrency)),
      closed(name, call(requestName), requests, concurrency))

  /** `main`, preceded by `warmUp` when there is one. */
  def afterWarmUp(warmUp: Option[PopulationBuilder], main: PopulationBuilder): PopulationBuilder =
    warmUp.fold(main)(_.andThen(main))

  /**
   * A threshold in whole milliseconds, the resolution of Gatling's response times and of the
   * assertions on them: the documents' fractional figures are rounded to the nearest.
   */
  def ms(threshold: Double): Int = math.round(threshold).toInt

  /** Name of the requests sent while warming up; assertions and the bench tables leave them out. */
  val WarmUp = "warm-up"
}
