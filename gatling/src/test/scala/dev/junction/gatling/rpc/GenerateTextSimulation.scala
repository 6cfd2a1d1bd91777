package dev.junction.gatling.rpc

import dev.junction.gatling.Settings
import dev.junction.gatling.gateway.Gateway
import io.gatling.core.Predef._

/**
 * Document 000, "AI Generation Performance": `ai.generateText` with "Hey there, nice to meet
 * you" and the "default" system prompt to Claude; 1488.40 ms in total, of which the Anthropic
 * call took 1477.06 ms, so 11.34 ms outside the provider call.
 *
 * Here the provider is the emulator answering after `generateText.upstreamLatencyMs` (1477, the
 * document's API call; the bench runner starts the emulator with the same value; smoke 50),
 * reached as `generateText.model` (`claude/claude-sonnet-4-5`: an Anthropic-type provider, the
 * Spring AI path). Closed model: `generateText.requests` (100; smoke 5) at concurrency
 * `generateText.concurrency` (10; smoke 2), after `generateText.warmUpRequests` (20; smoke 0).
 * The gateway's response cache must be off, or identical prompts come from memory.
 * Assertions: no failures; mean at most upstream latency + `generateText.maxMeanOverheadMs`
 * (11.34; smoke 5000).
 */
class GenerateTextSimulation extends Simulation {

  private val requests = Settings.int("generateText.requests", 100, 5)
  private val concurrency = Settings.int("generateText.concurrency", 10, 2)
  private val warmUpRequests = Settings.int("generateText.warmUpRequests", 20, 0)
  private val upstreamLatencyMs = Settings.int("generateText.upstreamLatencyMs", 1477, 50)
  private val maxMeanOverheadMs = Settings.double("generateText.maxMeanOverheadMs", 11.34, 5000)
  private val model = Settings.string("generateText.model", "claude/claude-sonnet-4-5")

  private val Name = s"ai.generateText c$concurrency"

  private val generateParams =
    s"""{"content":"Hey there, nice to meet you","systemPrompt":"default","model":"$model"}"""

  private def call(name: String) = exec(JsonRpc.call(name, "ai.generateText", generateParams))

  setUp(Gateway.closedAfterWarmUp("ai.generateText", call, Name, requests, concurrency, warmUpRequests))
    .protocols(Gateway.protocol())
    .assertions(
      details(Name).failedRequests.count.is(0L),
      details(Name).responseTime.mean.lte(Gateway.ms(upstreamLatencyMs + maxMeanOverheadMs)))
}
