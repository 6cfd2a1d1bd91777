package dev.junction.gatling.calculator

import java.util.concurrent.atomic.AtomicLong

import scala.concurrent.duration._

import io.gatling.commons.validation.Success
import io.gatling.core.Predef._
import io.gatling.core.session.Expression

import dev.junction.gatling.Settings
import dev.junction.gatling.calculator.Calculator.Operation

/**
 * Document 002, "Spike Test", scaled down: the reference jumped from 10,000 to 100,000
 * requests/s (10x); latency went from 0.26 ms to 0.98 ms, returned to normal 1.5 s after
 * the spike, and 0.002 % of calls failed during it. Here a constant arrival rate (open
 * model, one Add per virtual user) steps up by `factor` and back down. Each call is named
 * after the phase in which it was sent, so the runner can compare them:
 *  - `Spike baseline`: before the spike
 *  - `Spike surge`: during it
 *  - `Spike recovery +<k>s`: the k-th window of `calculator.spike.window` after it
 *  - `Spike settled`: the rest of the run
 *
 * Keys (normal / smoke default), besides [[Calculator]]'s:
 *  - `calculator.spike.rate` (300 / 20): calls per second before and after the spike
 *  - `calculator.spike.factor` (10 / 10)
 *  - `calculator.spike.before` (20 s / 2 s), `calculator.spike.during` (10 s / 2 s),
 *    `calculator.spike.after` (20 s / 4 s)
 *  - `calculator.spike.window` (1 s / 1 s) and `calculator.spike.windows` (5 / 2): recovery windows
 *  - `calculator.spike.recovery` (1500 ms / 1500 ms): the reference's recovery time; windows
 *    that start at or after it, and the settled phase, must be back to baseline latency
 *  - `calculator.spike.baselineMeanMs` (0.26 ms rounded up: 1 / 1000), `calculator.spike.surgeMeanMs`
 *    (0.98 ms rounded up: 1 / 1000): limits of the mean latency before and during the spike;
 *    recovered windows must meet the baseline limit
 *  - `calculator.spike.failedPercent` (0.002 / 0.002): the reference's error rate during the spike
 *  - `calculator.warmup` (10 s / 1 s): mixed calls at concurrency 10 first (`Warm-up <Operation>`)
 *
 * Gatling measures whole milliseconds, so the sub-millisecond reference figures become 1 ms limits.
 */
class CalculatorSpikeSimulation extends Simulation {

  private val rate = Settings.double("calculator.spike.rate", 300, 20)
  private val factor = Settings.double("calculator.spike.factor", 10, 10)
  private val before = Settings.duration("calculator.spike.before", 20.seconds, 2.seconds)
  private val during = Settings.duration("calculator.spike.during", 10.seconds, 2.seconds)
  private val after = Settings.duration("calculator.spike.after", 20.seconds, 4.seconds)
  private val window = Settings.duration("calculator.spike.window", 1.second, 1.second)
  require(window >= 1.second && window.toMillis % 1000 == 0, s"calculator.spike.window must be whole seconds, got $window")
  private val windows = math.max(0, math.min(Settings.int("calculator.spike.windows", 5, 2), (after / window).toInt - 1))
  private val recovery = Settings.duration("calculator.spike.recovery", 1500.millis, 1500.millis)
  private val baselineMeanMs = Calculator.limitMs("calculator.spike.baselineMeanMs", 0.26)
  private val surgeMeanMs = Calculator.limitMs("calculator.spike.surgeMeanMs", 0.98)
  private val failedPercent = Settings.double("calculator.spike.failedPercent", 0.002, 0.002)

  private val started = new AtomicLong(-1)

  /** The phase of a call sent now, measured from the first call. */
  private val phase: Expression[String] = _ => {
    val now = System.currentTimeMillis()
    started.compareAndSet(-1, now)
    val elapsed = now - started.get()
    val surgeStart = before.toMillis
    val recoveryStart = surgeStart + during.toMillis
    Success(
      if (elapsed < surgeStart) "Spike baseline"
      else if (elapsed < recoveryStart) "Spike surge"
      else {
        val k = (elapsed - recoveryStart) / window.toMillis
        if (k < windows) s"Spike recovery +${k * window.toSeconds}s" else "Spike settled"
      })
  }

  private val recoveredWindows = (0 until windows).filter(k => window * k.toLong >= recovery)
    .map(k => s"Spike recovery +${k * window.toSeconds}s")

  private val spike = scenario("Spike").exec(Calculator.call(Operation.Add, phase))

  private val protocol = Calculator.protocol

  private val measured = spike.inject(
      constantUsersPerSec(rate).during(before),
      constantUsersPerSec(rate * factor).during(during),
      constantUsersPerSec(rate).during(after))
    .protocols(protocol)

  setUp(Calculator.consecutive(Calculator.warmUp(Calculator.warmUpDuration, protocol).toSeq :+ measured))
    .assertions(Seq(
      global.failedRequests.percent.lte(failedPercent),
      details("Spike surge").failedRequests.percent.lte(failedPercent),
      details("Spike baseline").responseTime.mean.lte(baselineMeanMs),
      details("Spike surge").responseTime.mean.lte(surgeMeanMs),
      details("Spike settled").responseTime.mean.lte(baselineMeanMs)) ++
      recoveredWindows.map(name => details(name).responseTime.mean.lte(baselineMeanMs)): _*)
}
