package dev.junction.gatling.calculator

import scala.concurrent.duration._

import com.typesafe.scalalogging.StrictLogging
import io.gatling.core.Predef._

import dev.junction.gatling.Settings
import dev.junction.gatling.calculator.Calculator.Operation
import dev.junction.gatling.calculator.CalculatorSimulation.Figures
import dev.junction.gatling.grpc.GrpcProtocol

/**
 * Document 002, "Authentication Impact": Add at one concurrency against the calculator
 * without authentication, with mutual TLS and with a JWT, one step after the other
 * (closed model). Requests are named `Add auth=none`, `Add auth=mtls`, `Add auth=jwt`.
 * Each mode runs against its own server, since a calculator-service instance has one
 * auth mode. A mode whose target property is absent is skipped, with a log line saying so;
 * none always runs, against `calculator.target`.
 *
 * Keys (normal / smoke default), besides [[Calculator]]'s:
 *  - `calculator.target` (`127.0.0.1:50051`): the server with `junction.calculator.auth.mode=none`
 *  - `calculator.mtls.target`: the server with mode mtls; then also `calculator.mtls.ca` (CA
 *    of the server's certificate), `calculator.mtls.cert` and `calculator.mtls.key` (client
 *    certificate chain and PKCS#8 key, signed by the server's trusted CA), all PEM files,
 *    and optionally `calculator.mtls.authority` (name checked in the server certificate,
 *    when the target's host is not in it)
 *  - `calculator.jwt.target`: the server with mode jwt; then either `calculator.jwt.token`
 *    (a token to send as is) or `calculator.jwt.secret` (the server's
 *    `junction.calculator.auth.jwt.secret`, HS256), `calculator.jwt.issuer` (its `.issuer`)
 *    and, if the server requires one, `calculator.jwt.audience` (its `.audience`)
 *  - `calculator.auth.concurrency` (50 / 5)
 *  - `calculator.step` (20 s / 1 s), `calculator.warmup` (10 s / 1 s; each mode is warmed
 *    up), `calculator.cooldown` (2 s / 0)
 *  - `calculator.auth.p99Ms.<mode>`, `calculator.auth.meanMs.<mode>` (reference figure
 *    rounded up to whole ms / 1000 ms)
 *
 * Assertions: failed calls at most `calculator.failedPercent`; each mode's p99 and mean at
 * most document 002's authentication table ([[CalculatorAuthSimulation.Reference]]),
 * rounded up to Gatling's 1 ms resolution.
 */
class CalculatorAuthSimulation extends Simulation with StrictLogging {

  import CalculatorAuthSimulation._

  private val concurrency = Settings.int("calculator.auth.concurrency", 50, 5)
  private val step = Settings.duration("calculator.step", 20.seconds, 1.second)
  private val warmUp = Calculator.warmUpDuration
  private val cooldown = Settings.duration("calculator.cooldown", 2.seconds, Duration.Zero)

  private val modes: Seq[(String, GrpcProtocol)] =
    Seq(Some("none" -> Calculator.protocol), mtls, jwt).flatten

  logger.info(s"Authentication modes measured: ${modes.map(_._1).mkString(", ")}")

  private val steps = modes.flatMap { case (mode, protocol) =>
    val name = requestName(mode)
    val warm = Option.when(warmUp > Duration.Zero)(Calculator.closedStep(s"Warm-up auth=$mode",
      exec(Calculator.call(Operation.Add, s"Warm-up $name")), 10, warmUp, protocol))
    warm.toSeq :+ Calculator.closedStep(name, exec(Calculator.call(Operation.Add, name)), concurrency, step, protocol)
  }

  private val latencyAssertions = for {
    (mode, _) <- modes
    reference <- Reference.get(mode).toSeq
    assertion <- Seq(
      details(requestName(mode)).responseTime.percentile(99)
        .lte(Calculator.limitMs(s"calculator.auth.p99Ms.$mode", reference.p99Ms)),
      details(requestName(mode)).responseTime.mean
        .lte(Calculator.limitMs(s"calculator.auth.meanMs.$mode", reference.meanMs)))
  } yield assertion

  setUp(Calculator.consecutive(Calculator.withCooldowns(steps, cooldown)))
    .assertions(global.failedRequests.percent.lte(Calculator.failedPercent) +: latencyAssertions: _*)

  private def mtls: Option[(String, GrpcProtocol)] = sys.props.get("calculator.mtls.target").filter(_.trim.nonEmpty) match {
    case None =>
      logger.warn("Skipping auth=mtls: calculator.mtls.target is not set")
      None
    case Some(target) =>
      val protocol = Calculator.protocol(target.trim)
        .mtls(required("calculator.mtls.ca"), required("calculator.mtls.cert"), required("calculator.mtls.key"))
      Some("mtls" -> sys.props.get("calculator.mtls.authority").filter(_.trim.nonEmpty).fold(protocol)(a => protocol.authority(a.trim)))
  }

  private def jwt: Option[(String, GrpcProtocol)] = sys.props.get("calculator.jwt.target").filter(_.trim.nonEmpty) match {
    case None =>
      logger.warn("Skipping auth=jwt: calculator.jwt.target is not set")
      None
    case Some(target) =>
      val protocol = Calculator.protocol(target.trim)
      Some("jwt" -> (sys.props.get("calculator.jwt.token").filter(_.trim.nonEmpty) match {
        case Some(token) => protocol.jwt(token)
        case None => protocol.jwt(required("calculator.jwt.secret"), required("calculator.jwt.issuer"),
          sys.props.get("calculator.jwt.audience").filter(_.trim.nonEmpty))
      }))
  }

  private def required(name: String): String = sys.props.get(name).map(_.trim).filter(_.nonEmpty)
    .getOrElse(throw new IllegalArgumentException(s"system property $name must be set when its mode's target is"))
}

object CalculatorAuthSimulation {

  def requestName(mode: String): String = s"Add auth=$mode"

  /** Document 002, "Authentication Impact", concurrency 50 (ghz, 8-core i7-10700K, Go server, loopback). */
  val Reference: Map[String, Figures] = Map(
    "none" -> Figures(98754, 0.51, 0.76),
    "mtls" -> Figures(94362, 0.53, 0.80),
    "jwt" -> Figures(91248, 0.55, 0.82)
  )
}
