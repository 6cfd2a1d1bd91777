package dev.junction.gatling.messaging

import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse}
import java.time.Duration

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.typesafe.scalalogging.StrictLogging

/**
 * Makes sure every list the simulations read has rows: when the service's database has no
 * instance, chat, message or event, creates a few through the public API (which records
 * their events too). A seeded database is left as it is.
 */
object MessagingData extends StrictLogging {

  private val json = new ObjectMapper()

  private val client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()

  /** Creates what is missing at `baseUrl` with `apiKey`; fails with a clear message if the service is unusable. */
  def ensure(baseUrl: String, apiKey: String, chats: Int, messages: Int): Unit = {
    val api = baseUrl.stripSuffix("/") + Messaging.Base
    val health = send(HttpRequest.newBuilder(URI.create(s"$api/health")).GET())
    require(health.statusCode == 200, s"messaging-service at $baseUrl is not healthy: ${health.statusCode} ${health.body}")
    require(apiKey.nonEmpty, "messaging.apiKey is not set: pass the service's admin key (junction.messaging.admin-key)")

    val instances = list(api, apiKey, "instances")
    warnIfRateLimited(instances._2)
    val instanceId = first(instances._1).getOrElse {
      val created = create(api, apiKey, "instances", s"""{"name":"gatling-bench","channel":"webchat"}""")
      logger.info(s"Created instance $created for the benchmark")
      created
    }
    val chatIds = first(list(api, apiKey, "chats")._1) match {
      case Some(id) => Seq(id)
      case None =>
        val created = (1 to chats).map(i => create(api, apiKey, "chats",
          s"""{"instanceId":"$instanceId","remoteId":"gatling-bench-$i","name":"Gatling bench $i","type":"direct"}"""))
        logger.info(s"Created ${created.size} chats for the benchmark")
        created
    }
    if (first(list(api, apiKey, "messages")._1).isEmpty || first(list(api, apiKey, "events")._1).isEmpty) {
      (1 to messages).foreach { i =>
        create(api, apiKey, "messages", s"""{"chatId":"${chatIds(i % chatIds.size)}","type":"text",""" +
          s""""text":"benchmark message $i","direction":"inbound"}""")
      }
      logger.info(s"Created $messages messages (and their events) for the benchmark")
    }
  }

  private def list(api: String, apiKey: String, resource: String): (JsonNode, HttpResponse[String]) = {
    val response = send(HttpRequest.newBuilder(URI.create(s"$api/$resource?limit=1")).header("x-api-key", apiKey).GET())
    response.statusCode match {
      case 200 => (json.readTree(response.body), response)
      case 401 | 403 => throw new IllegalStateException(
        s"GET /$resource refused (${response.statusCode}): messaging.apiKey must be a valid key with read and write scope")
      case other => throw new IllegalStateException(s"GET /$resource answered $other: ${response.body}")
    }
  }

  private def create(api: String, apiKey: String, resource: String, body: String): String = {
    val response = send(HttpRequest.newBuilder(URI.create(s"$api/$resource"))
      .header("x-api-key", apiKey).header("content-type", "application/json")
      .POST(HttpRequest.BodyPublishers.ofString(body)))
    if (response.statusCode != 201 && response.statusCode != 200)
      throw new IllegalStateException(s"POST /$resource answered ${response.statusCode}: ${response.body}")
    json.readTree(response.body).path("id").asText()
  }

  private def first(page: JsonNode): Option[String] = {
    val items = page.path("items")
    Option.when(items.isArray && items.size > 0)(items.get(0).path("id").asText())
  }

  private def warnIfRateLimited(response: HttpResponse[String]): Unit =
    response.headers().firstValue("X-RateLimit-Limit").ifPresent { limit =>
      logger.warn(s"messaging-service rate-limits this key ($limit requests per period for /instances): " +
        "requests beyond its limits fail with 429; start it with --junction.messaging.rate-limit.enabled=false")
    }

  private def send(request: HttpRequest.Builder): HttpResponse[String] =
    client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
}
