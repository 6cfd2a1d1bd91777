package dev.junction.gatling.calculator

import java.util.concurrent.ThreadLocalRandom

import scala.concurrent.duration._

import io.gatling.core.Predef._
import io.gatling.core.session.Expression
import io.gatling.core.structure.{ChainBuilder, PopulationBuilder}
import io.grpc.MethodDescriptor

import dev.junction.calculator.v1.{BinaryOperation, CalculationResult, CalculatorGrpc}
import dev.junction.gatling.Settings
import dev.junction.gatling.grpc.GrpcUnaryActionBuilder
import dev.junction.gatling.grpc.GrpcProtocol
import dev.junction.gatling.grpc.Predef._

/**
 * What the calculator simulations share: the four operations, calls with random operands
 * whose result is checked, the protocol, and the common parameters.
 *
 * Common keys (normal / smoke default):
 *  - `calculator.target` (`127.0.0.1:50051`): plaintext target
 *  - `calculator.channels` (5 / 2): connections the calls are spread over; the reference used `ghz --connections=5`
 *  - `calculator.callsPerUser` (50 / 10): calls each virtual user makes in a closed-model step
 *    before it is replaced, so that users are not created per call
 *  - `calculator.failedPercent` (0.0003 / 0.0003): largest share of failed calls, in percent: the
 *    reference's sustained test had a 99.9997 % success rate (document 002, "Sustained Load Test")
 */
object Calculator {

  /** One of the service's unary operations. */
  sealed abstract class Operation(val name: String, val method: MethodDescriptor[BinaryOperation, CalculationResult],
      val function: (Double, Double) => Double) {
    /** Lower-case name, used in property keys. */
    def key: String = name.toLowerCase
  }

  object Operation {
    case object Add extends Operation("Add", CalculatorGrpc.getAddMethod, _ + _)
    case object Subtract extends Operation("Subtract", CalculatorGrpc.getSubtractMethod, _ - _)
    case object Multiply extends Operation("Multiply", CalculatorGrpc.getMultiplyMethod, _ * _)
    case object Divide extends Operation("Divide", CalculatorGrpc.getDivideMethod, _ / _)

    val all: Seq[Operation] = Seq(Add, Subtract, Multiply, Divide)

    def named(name: String): Operation = all.find(_.key == name.trim.toLowerCase)
      .getOrElse(throw new IllegalArgumentException(s"unknown operation $name; one of ${all.map(_.key).mkString(", ")}"))
  }

  def channels: Int = Settings.int("calculator.channels", 5, 2)

  def callsPerUser: Int = Settings.int("calculator.callsPerUser", 50, 10)

  def failedPercent: Double = Settings.double("calculator.failedPercent", 0.0003, 0.0003)

  /** The plaintext protocol to `calculator.target`. */
  def protocol: GrpcProtocol = protocol(Settings.calculatorTarget)

  def protocol(target: String): GrpcProtocol = grpcProtocol.target(target).channels(channels)

  /** A call of `operation` with random finite operands (a non-zero divisor), checking the result. */
  def call(operation: Operation, requestName: Expression[String]): GrpcUnaryActionBuilder[BinaryOperation, CalculationResult] =
    grpc(requestName).unary(operation.method)
      .payload(_ => operands(operation))
      .check("result is exact")((request, response) =>
        response.getResult == operation.function(request.getA, request.getB))

  /** 40 % Add, 40 % Subtract, 10 % Multiply, 10 % Divide, as in the reference's mixed test. */
  def mixed(requestName: Operation => Expression[String]): ChainBuilder =
    randomSwitch(
      40.0 -> exec(call(Operation.Add, requestName(Operation.Add))),
      40.0 -> exec(call(Operation.Subtract, requestName(Operation.Subtract))),
      10.0 -> exec(call(Operation.Multiply, requestName(Operation.Multiply))),
      10.0 -> exec(call(Operation.Divide, requestName(Operation.Divide)))
    )

  /**
   * A closed-model step: `concurrency` users at all times for `duration`, each making
   * `callsPerUser` calls of `chain` before a new user takes its place.
   */
  def closedStep(name: String, chain: ChainBuilder, concurrency: Int, duration: FiniteDuration,
      protocol: GrpcProtocol): PopulationBuilder =
    scenario(name).repeat(callsPerUser)(chain)
      .inject(constantConcurrentUsers(concurrency).during(duration))
      .protocols(protocol)

  /** A pause with no calls, between steps. */
  def cooldown(name: String, duration: FiniteDuration): PopulationBuilder =
    scenario(name).pause(duration).inject(atOnceUsers(1))

  /** The steps with an idle `cooldown` between each two (none if it is zero). */
  def withCooldowns(steps: Seq[PopulationBuilder], cooldown: FiniteDuration): Seq[PopulationBuilder] =
    if (cooldown <= Duration.Zero) steps
    else steps.zipWithIndex.flatMap { case (step, i) =>
      if (i == steps.size - 1) Seq(step) else Seq(step, this.cooldown(s"Cooldown ${i + 1}", cooldown))
    }

  /** Runs the populations one after another, each starting when the previous one's users are done. */
  def consecutive(steps: Seq[PopulationBuilder]): PopulationBuilder =
    steps.reduceRight((step, rest) => step.andThen(rest))

  /** A comma-separated list of positive integers. */
  def ints(name: String, default: String, smokeDefault: String): Seq[Int] =
    Settings.string(name, if (Settings.smoke) smokeDefault else default).split(',').toSeq.map(_.trim).filter(_.nonEmpty)
      .map { v =>
        val n = try v.toInt catch { case _: NumberFormatException => throw new IllegalArgumentException(s"$name: $v is not an integer") }
        require(n > 0, s"$name: $v must be positive")
        n
      }

  /**
   * A latency limit for an assertion, in Gatling's unit: whole milliseconds. Gatling times
   * calls with a millisecond clock, so a sub-millisecond reference figure can only be
   * checked as "at most 1 ms"; a figure is rounded up to the next millisecond.
   */
  def limitMs(name: String, referenceMs: Double): Int =
    Settings.int(name, math.max(1, math.ceil(referenceMs).toInt), SmokeLatencyLimitMs)

  /** Latency limits of a smoke run: it proves the simulation works on a busy machine, it does not measure. */
  val SmokeLatencyLimitMs: Int = 1000

  /** Random operands in [-1000, 1000); a divisor is never zero. */
  def operands(operation: Operation): BinaryOperation = {
    val random = ThreadLocalRandom.current()
    val a = random.nextDouble(-1000, 1000)
    val b = operation match {
      case Operation.Divide => (if (random.nextBoolean()) 1 else -1) * random.nextDouble(0.5, 1000)
      case _ => random.nextDouble(-1000, 1000)
    }
    BinaryOperation.newBuilder().setA(a).setB(b).build()
  }

  /** Warm-up before measuring, as the reference did (30 s there): mixed calls at concurrency 10. */
  def warmUp(duration: FiniteDuration, protocol: GrpcProtocol): Option[PopulationBuilder] =
    Option.when(duration > Duration.Zero)(
      closedStep("Warm-up", mixed(op => s"Warm-up ${op.name}"), 10, duration, protocol))

  def warmUpDuration: FiniteDuration = Settings.duration("calculator.warmup", 10.seconds, 1.second)
}
