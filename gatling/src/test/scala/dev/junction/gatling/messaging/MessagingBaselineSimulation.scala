package dev.junction.gatling.messaging

import io.gatling.core.Predef._
import io.gatling.core.structure.PopulationBuilder

import dev.junction.gatling.Settings

/**
 * Document 004, "Endpoint Latency (100 requests each, concurrency 10)": each endpoint in
 * turn gets `messaging.requests` GETs from `messaging.concurrency` users (each user sends
 * its share back to back, as `ab -n -c` does). Requests carry the document's row names:
 * `Health Check`, `Info`, `List Instances`, `List Chats`, `List Events`, `List Messages`;
 * warm-up requests are `Warm-up <name>`.
 *
 * Reference (document 004, 16 CPUs): avg / p95 / p99 ms, requests/s — Health Check 7.0 /
 * 20.6 / 29.1, 1087; Info 3.8 / 6.8 / 7.8, 2128; List Instances 16.1 / 22.7 / 27.2, 503;
 * List Chats 17.2 / 25.3 / 32.5, 415; List Events 28.5 / 43.5 / 48.1, 249; List Messages
 * 116.9 / 168.4 / 173.3, 79 (WARN).
 *
 * Keys (normal / smoke default), besides [[Messaging]]'s:
 *  - `messaging.endpoints` (`health,info,instances,chats,events,messages` / same)
 *  - `messaging.requests` (100 / 20), `messaging.concurrency` (10 / 2)
 *  - `messaging.warmupRequests` (100 / 10): per endpoint, before measuring (the document's `--warmup`); 0 for none
 *  - `messaging.seed.chats` (3 / 3), `messaging.seed.messages` (30 / 30): created if the database is empty
 *
 * Assertions: document 004's thresholds (see [[Messaging]]) on every endpoint.
 */
class MessagingBaselineSimulation extends Simulation {

  private val endpoints = Messaging.endpoints("messaging.endpoints", "health,info,instances,chats,events,messages")
  private val requests = Settings.int("messaging.requests", 100, 20)
  private val concurrency = Settings.int("messaging.concurrency", 10, 2)
  private val warmUpRequests = Settings.int("messaging.warmupRequests", 100, 10)

  before {
    MessagingData.ensure(Messaging.urls.head, Messaging.apiKey, Settings.int("messaging.seed.chats", 3),
      Settings.int("messaging.seed.messages", 30))
  }

  private def closed(name: String, endpoint: Messaging.Endpoint, requestName: String, total: Int): PopulationBuilder = {
    val users = math.max(1, math.min(concurrency, total))
    val perUser = math.max(1, math.ceil(total.toDouble / users).toInt)
    scenario(name).repeat(perUser)(endpoint.request(requestName)).inject(atOnceUsers(users))
  }

  private val warmUp = if (warmUpRequests <= 0) Nil
    else endpoints.map(e => closed(s"Warm-up ${e.name}", e, s"Warm-up ${e.name}", warmUpRequests))

  private val measured = endpoints.map(e => closed(e.name, e, e.name, requests))

  setUp((warmUp ++ measured).reduceRight((step, rest) => step.andThen(rest)))
    .protocols(Messaging.protocol)
    .assertions(Messaging.thresholds(endpoints.map(_.name)): _*)
}
