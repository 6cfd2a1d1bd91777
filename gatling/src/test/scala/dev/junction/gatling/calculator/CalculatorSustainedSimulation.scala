package dev.junction.gatling.calculator

import scala.concurrent.duration._

import io.gatling.core.Predef._

import dev.junction.gatling.Settings
import dev.junction.gatling.calculator.Calculator.Operation

/**
 * Document 002, "Sustained Load Test", scaled down: the reference held 50,000 requests/s
 * for 24 h (4.32 billion calls, 99.9997 % success, 129 failures) on an 8-core machine; here
 * a constant arrival rate (open model, one Add per virtual user) for minutes. Requests are
 * named `Sustained Add`.
 *
 * Keys (normal / smoke default), besides [[Calculator]]'s:
 *  - `calculator.sustained.rate` (1000 / 20): calls per second
 *  - `calculator.sustained.duration` (10 min / 5 s)
 *  - `calculator.sustained.failedPercent` (0.0003 / 0.0003): the reference's 99.9997 % success rate
 *  - `calculator.warmup` (10 s / 1 s): mixed calls at concurrency 10 first (`Warm-up <Operation>`)
 *
 * Assertions: failed calls at most `calculator.sustained.failedPercent`, the reference's only
 * figure for this test besides memory (stable at ~35 MB), which is for the runner to sample.
 * The open model sends at the rate whatever the service does, so a service that cannot keep
 * up shows as growing latency, not as a lower count; Gatling's per-request "Cnt/s" divides by
 * the whole run, warm-up included, so read the rate as count / `calculator.sustained.duration`.
 */
class CalculatorSustainedSimulation extends Simulation {

  private val rate = Settings.double("calculator.sustained.rate", 1000, 20)
  private val duration = Settings.duration("calculator.sustained.duration", 10.minutes, 5.seconds)
  private val failedPercent = Settings.double("calculator.sustained.failedPercent", 0.0003, 0.0003)

  private val sustained = scenario("Sustained")
    .exec(Calculator.call(Operation.Add, CalculatorSustainedSimulation.RequestName))

  private val protocol = Calculator.protocol

  setUp(Calculator.consecutive(Calculator.warmUp(Calculator.warmUpDuration, protocol).toSeq :+
      sustained.inject(constantUsersPerSec(rate).during(duration)).protocols(protocol)))
    .assertions(global.failedRequests.percent.lte(failedPercent))
}

object CalculatorSustainedSimulation {
  val RequestName = "Sustained Add"
}
