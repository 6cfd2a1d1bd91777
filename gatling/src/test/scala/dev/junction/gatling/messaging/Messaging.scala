package dev.junction.gatling.messaging

import scala.concurrent.duration._

import io.gatling.core.Predef._
import io.gatling.core.assertion.AssertionWithPath
import io.gatling.commons.stats.assertion.Assertion
import io.gatling.core.structure.ChainBuilder
import io.gatling.http.Predef._
import io.gatling.http.protocol.HttpProtocolBuilder

import dev.junction.gatling.Settings

/**
 * What the messaging simulations share: the service's protocol, the endpoints document
 * 004 measured, and its thresholds.
 *
 * Keys (normal / smoke default):
 *  - `messaging.url` (`http://127.0.0.1:8082`): base URL; paths are under `/api/v2`. Several
 *    comma-separated base URLs (instances of one service on one PostgreSQL) spread the
 *    virtual users over them round-robin, as a load balancer would
 *  - `messaging.apiKey` (none): an API key with write scope, sent as `x-api-key`: the
 *    service's `junction.messaging.admin-key` (write scope creates the data the lists need
 *    when the database is empty; read scope suffices for a seeded database)
 *  - `messaging.requestTimeout` (30 s / 5 s): a request without an answer by then fails
 *  - `messaging.p50Ms` (50 / 50), `messaging.p95Ms` (200 / 200), `messaging.p99Ms` (500 / 500),
 *    `messaging.failedPercent` (0.1 / 0.1): document 004's "Acceptable" thresholds
 *    (section "Thresholds": p50 < 50 ms, p95 < 200 ms, p99 < 500 ms, error rate < 0.1 %)
 *
 * The service rate-limits API keys (by default 30 instance, 60 message and 100 event
 * requests a minute); run it with `--junction.messaging.rate-limit.enabled=false` for these
 * simulations, or its 429s count as failures. The set-up warns when it sees a limit.
 */
object Messaging {

  def apiKey: String = Settings.string("messaging.apiKey", "")

  /** The base URLs of `messaging.url`: one per instance. */
  def urls: Seq[String] = {
    val urls = Settings.messagingUrl.split(',').toSeq.map(_.trim).filter(_.nonEmpty)
    require(urls.nonEmpty, "messaging.url: no base URL given")
    urls
  }

  /** How long a request may take before it fails: the service's own request timeout, also ab's default. */
  lazy val requestTimeout: FiniteDuration = Settings.duration("messaging.requestTimeout", 30.seconds, 5.seconds)

  /** An endpoint of document 004: its name in the tables (also the request name) and its path. */
  final case class Endpoint(key: String, name: String, path: String, authenticated: Boolean = true) {
    def request(requestName: String = name): ChainBuilder = {
      val get = http(requestName).get(Base + path).requestTimeout(requestTimeout)
      exec((if (authenticated) get.header("x-api-key", apiKey) else get).check(status.is(200)))
    }
  }

  val Base = "/api/v2"

  val Health: Endpoint = Endpoint("health", "Health Check", "/health", authenticated = false)
  val Info: Endpoint = Endpoint("info", "Info", "/info", authenticated = false)
  val Instances: Endpoint = Endpoint("instances", "List Instances", "/instances")
  val Chats: Endpoint = Endpoint("chats", "List Chats", "/chats")
  val Events: Endpoint = Endpoint("events", "List Events", "/events")
  val Messages: Endpoint = Endpoint("messages", "List Messages", "/messages")

  val All: Seq[Endpoint] = Seq(Health, Info, Instances, Chats, Events, Messages)

  /** Endpoints named in a comma-separated property. */
  def endpoints(property: String, default: String): Seq[Endpoint] =
    Settings.string(property, default).split(',').toSeq.map(_.trim.toLowerCase).filter(_.nonEmpty).map { key =>
      All.find(_.key == key).getOrElse(throw new IllegalArgumentException(
        s"$property: unknown endpoint $key; one of ${All.map(_.key).mkString(", ")}"))
    }

  def protocol: HttpProtocolBuilder =
    http
      .baseUrls(urls: _*)
      .acceptHeader("application/json")
      .acceptEncodingHeader("gzip")
      // Gatling's default warm-up calls https://gatling.io; the service is on loopback.
      .disableWarmUp

  /** Document 004's thresholds on each named request, and on the share of failures overall. */
  def thresholds(requestNames: Seq[String]): Seq[Assertion] = {
    val p50 = Settings.int("messaging.p50Ms", 50)
    val p95 = Settings.int("messaging.p95Ms", 200)
    val p99 = Settings.int("messaging.p99Ms", 500)
    val failed = Settings.double("messaging.failedPercent", 0.1)
    global.failedRequests.percent.lt(failed) +: requestNames.flatMap { name =>
      val path: AssertionWithPath = details(name)
      Seq(path.responseTime.percentile(50).lt(p50), path.responseTime.percentile(95).lt(p95),
        path.responseTime.percentile(99).lt(p99), path.failedRequests.percent.lt(failed))
    }
  }
}
