package dev.junction.gatling.calculator

import scala.concurrent.duration._

import io.gatling.core.Predef._

import dev.junction.gatling.Settings
import dev.junction.gatling.calculator.Calculator.Operation

/**
 * Document 002, "Single Operation Throughput": each operation alone at each concurrency,
 * closed model, one step after the other (Add at 1, 10, 50, 100, then Subtract, ...).
 * Requests are named `<Operation> c=<concurrency>` (`Add c=50`), warm-up calls
 * `Warm-up <Operation>`.
 *
 * Keys (normal / smoke default), besides [[Calculator]]'s:
 *  - `calculator.operations` (`add,subtract,multiply,divide` / same)
 *  - `calculator.concurrency` (`1,10,50,100` / `1,10`)
 *  - `calculator.step` (20 s / 1 s): length of each step; the reference measured 5 min per configuration
 *  - `calculator.warmup` (10 s / 1 s): mixed calls at concurrency 10 first; the reference warmed up 30 s
 *  - `calculator.cooldown` (2 s / 0): idle time between steps; the reference paused 30 s
 *  - `calculator.p99Ms.<operation>.c<concurrency>`, `calculator.meanMs.<operation>.c<concurrency>`
 *    (reference figure rounded up to whole ms / 1000 ms): limits of each step's p99 and mean
 *
 * Assertions: failed calls at most `calculator.failedPercent` overall; for each step with a
 * reference figure, p99 and mean at most the reference's, from document 002's table
 * ([[CalculatorSimulation.Reference]]) rounded up to Gatling's 1 ms resolution.
 */
class CalculatorSimulation extends Simulation {

  import CalculatorSimulation._

  private val operations = Settings.string("calculator.operations", "add,subtract,multiply,divide")
    .split(',').toSeq.filter(_.trim.nonEmpty).map(Operation.named)
  private val concurrencies = Calculator.ints("calculator.concurrency", "1,10,50,100", "1,10")
  private val step = Settings.duration("calculator.step", 20.seconds, 1.second)
  private val cooldown = Settings.duration("calculator.cooldown", 2.seconds, Duration.Zero)
  private val protocol = Calculator.protocol

  private val steps = for (operation <- operations; concurrency <- concurrencies) yield {
    val name = requestName(operation, concurrency)
    Calculator.closedStep(name, exec(Calculator.call(operation, name)), concurrency, step, protocol)
  }

  private val latencyAssertions = for {
    operation <- operations
    concurrency <- concurrencies
    reference <- Reference.get((operation, concurrency)).toSeq
    assertion <- Seq(
      details(requestName(operation, concurrency)).responseTime.percentile(99)
        .lte(Calculator.limitMs(s"calculator.p99Ms.${operation.key}.c$concurrency", reference.p99Ms)),
      details(requestName(operation, concurrency)).responseTime.mean
        .lte(Calculator.limitMs(s"calculator.meanMs.${operation.key}.c$concurrency", reference.meanMs)))
  } yield assertion

  setUp(Calculator.consecutive(Calculator.warmUp(Calculator.warmUpDuration, protocol).toSeq ++ Calculator.withCooldowns(steps, cooldown)))
    .assertions(global.failedRequests.percent.lte(Calculator.failedPercent) +: latencyAssertions: _*)
}

object CalculatorSimulation {

  def requestName(operation: Operation, concurrency: Int): String = s"${operation.name} c=$concurrency"

  /** A row of a reference table: requests/s, average and p99 latency in ms. */
  final case class Figures(requestsPerSecond: Double, meanMs: Double, p99Ms: Double)

  /** Document 002, "Single Operation Throughput" (ghz, 8-core i7-10700K, Go server, loopback). */
  val Reference: Map[(Operation, Int), Figures] = Map(
    (Operation.Add, 1) -> Figures(4852, 0.21, 0.35),
    (Operation.Add, 10) -> Figures(38741, 0.26, 0.42),
    (Operation.Add, 50) -> Figures(95632, 0.52, 0.78),
    (Operation.Add, 100) -> Figures(103457, 0.97, 1.45),
    (Operation.Subtract, 1) -> Figures(4821, 0.21, 0.36),
    (Operation.Subtract, 10) -> Figures(38215, 0.26, 0.43),
    (Operation.Subtract, 50) -> Figures(94874, 0.53, 0.79),
    (Operation.Subtract, 100) -> Figures(102963, 0.97, 1.46),
    (Operation.Multiply, 1) -> Figures(4791, 0.21, 0.36),
    (Operation.Multiply, 10) -> Figures(37892, 0.26, 0.43),
    (Operation.Multiply, 50) -> Figures(94125, 0.53, 0.80),
    (Operation.Multiply, 100) -> Figures(102147, 0.98, 1.47),
    (Operation.Divide, 1) -> Figures(4772, 0.21, 0.36),
    (Operation.Divide, 10) -> Figures(37654, 0.27, 0.44),
    (Operation.Divide, 50) -> Figures(93521, 0.53, 0.81),
    (Operation.Divide, 100) -> Figures(101478, 0.99, 1.48)
  )
}
