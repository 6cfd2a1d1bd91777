package dev.junction.gatling.messaging

import scala.concurrent.duration._

import io.gatling.core.Predef._

import dev.junction.gatling.Settings

/**
 * Document 004, "Profiler Results (10s, concurrency 20)": each endpoint in turn is called
 * back to back by `messaging.profile.concurrency` users for `messaging.profile.duration`
 * (as `wrk -c20 -d10s` does). Requests carry the document's row names: `Health Check`,
 * `Instances`, `Chats`, `Events` (and `Info`, `Messages` if asked for).
 *
 * Reference (document 004, 16 CPUs): requests, requests/s, avg / p95 / p99 ms — Health
 * Check 24,312, 2,431, 7.1 / 11.7 / 14.4; Instances 5,556, 556, 35.4 / 40.7 / 44.8; Chats
 * 5,361, 536, 36.7 / 43.5 / 50.3; Events 5,100, 510, 36.7 / 41.4 / 69.3. Its memory deltas
 * (+5 to +13 MB per endpoint) are for the runner to sample.
 *
 * Keys (normal / smoke default), besides [[Messaging]]'s:
 *  - `messaging.profile.endpoints` (`health,instances,chats,events` / same)
 *  - `messaging.profile.duration` (10 s / 2 s), `messaging.profile.concurrency` (20 / 4)
 *  - `messaging.seed.chats` (3), `messaging.seed.messages` (30): created if the database is empty
 *
 * Assertions: document 004's thresholds (see [[Messaging]]) on every endpoint.
 */
class MessagingProfileSimulation extends Simulation {

  import MessagingProfileSimulation._

  private val endpoints = Messaging.endpoints("messaging.profile.endpoints", "health,instances,chats,events")
  private val duration = Settings.duration("messaging.profile.duration", 10.seconds, 2.seconds)
  private val concurrency = Settings.int("messaging.profile.concurrency", 20, 4)

  before {
    MessagingData.ensure(Messaging.urls.head, Messaging.apiKey, Settings.int("messaging.seed.chats", 3),
      Settings.int("messaging.seed.messages", 30))
  }

  private val steps = endpoints.map { endpoint =>
    scenario(requestName(endpoint)).during(duration)(endpoint.request(requestName(endpoint)))
      .inject(atOnceUsers(concurrency))
  }

  setUp(steps.reduceRight((step, rest) => step.andThen(rest)))
    .protocols(Messaging.protocol)
    .assertions(Messaging.thresholds(endpoints.map(requestName)): _*)
}

object MessagingProfileSimulation {

  /** The profiler table's row names: `Health Check`, then the resource alone (`Instances`). */
  def requestName(endpoint: Messaging.Endpoint): String = endpoint.name.stripPrefix("List ")
}
