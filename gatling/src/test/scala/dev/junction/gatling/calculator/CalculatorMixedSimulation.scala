package dev.junction.gatling.calculator

import scala.concurrent.duration._

import io.gatling.core.Predef._

import dev.junction.gatling.Settings
import dev.junction.gatling.calculator.CalculatorSimulation.Figures

/**
 * Document 002, "Mixed Operation Throughput": 40 % Add, 40 % Subtract, 10 % Multiply,
 * 10 % Divide at each concurrency, closed model, one step after the other. Each call runs
 * in a group named `Mixed c=<concurrency>` (the step's aggregate) and is named by its
 * operation inside it (`Mixed c=50 / Add`); warm-up calls are `Warm-up <Operation>`.
 *
 * Keys (normal / smoke default), besides [[Calculator]]'s:
 *  - `calculator.mixed.concurrency` (`10,50,100` / `10`)
 *  - `calculator.step` (20 s / 1 s), `calculator.warmup` (10 s / 1 s), `calculator.cooldown` (2 s / 0)
 *  - `calculator.mixed.p99Ms.c<concurrency>`, `calculator.mixed.meanMs.c<concurrency>`
 *    (reference figure rounded up to whole ms / 1000 ms)
 *
 * Assertions: failed calls at most `calculator.failedPercent`; each step's p99 and mean
 * (of the group: the calls' own times) at most document 002's mixed table
 * ([[CalculatorMixedSimulation.Reference]]), rounded up to Gatling's 1 ms resolution.
 */
class CalculatorMixedSimulation extends Simulation {

  import CalculatorMixedSimulation._

  private val concurrencies = Calculator.ints("calculator.mixed.concurrency", "10,50,100", "10")
  private val step = Settings.duration("calculator.step", 20.seconds, 1.second)
  private val cooldown = Settings.duration("calculator.cooldown", 2.seconds, Duration.Zero)
  private val protocol = Calculator.protocol

  private val steps = concurrencies.map { concurrency =>
    val chain = group(groupName(concurrency))(Calculator.mixed(op => op.name))
    Calculator.closedStep(groupName(concurrency), chain, concurrency, step, protocol)
  }

  private val latencyAssertions = for {
    concurrency <- concurrencies
    reference <- Reference.get(concurrency).toSeq
    assertion <- Seq(
      details(groupName(concurrency)).responseTime.percentile(99)
        .lte(Calculator.limitMs(s"calculator.mixed.p99Ms.c$concurrency", reference.p99Ms)),
      details(groupName(concurrency)).responseTime.mean
        .lte(Calculator.limitMs(s"calculator.mixed.meanMs.c$concurrency", reference.meanMs)))
  } yield assertion

  setUp(Calculator.consecutive(Calculator.warmUp(Calculator.warmUpDuration, protocol).toSeq ++
      Calculator.withCooldowns(steps, cooldown)))
    .assertions(global.failedRequests.percent.lte(Calculator.failedPercent) +: latencyAssertions: _*)
}

object CalculatorMixedSimulation {

  def groupName(concurrency: Int): String = s"Mixed c=$concurrency"

  /** Document 002, "Mixed Operation Throughput" (ghz, 8-core i7-10700K, Go server, loopback). */
  val Reference: Map[Int, Figures] = Map(
    10 -> Figures(38125, 0.26, 0.43),
    50 -> Figures(94362, 0.53, 0.80),
    100 -> Figures(102245, 0.98, 1.47)
  )
}
