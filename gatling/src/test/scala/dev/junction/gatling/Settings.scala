package dev.junction.gatling

import scala.concurrent.duration._

/**
 * Simulation parameters, read from system properties (`mvn gatling:test -Dname=value`).
 * Every simulation documents its own keys; the defaults suit a 2-core machine that runs
 * the load generator beside the services. With `-Dsmoke=true` each parameter takes its
 * smoke value instead: a few seconds at low load, enough to prove the simulation works.
 */
object Settings {

  /** Whether this is a smoke run (`-Dsmoke=true`). */
  val smoke: Boolean = sys.props.get("smoke").exists(_.trim.equalsIgnoreCase("true"))

  def string(name: String, default: String): String =
    sys.props.get(name).map(_.trim).filter(_.nonEmpty).getOrElse(default)

  def int(name: String, default: Int, smokeDefault: Int): Int =
    sys.props.get(name).map(v => parse(name, v)(_.toInt)).getOrElse(if (smoke) smokeDefault else default)

  def int(name: String, default: Int): Int = int(name, default, default)

  def double(name: String, default: Double, smokeDefault: Double): Double =
    sys.props.get(name).map(v => parse(name, v)(_.toDouble)).getOrElse(if (smoke) smokeDefault else default)

  def double(name: String, default: Double): Double = double(name, default, default)

  /** A duration in seconds, or with a unit (`500ms`, `2m`). */
  def duration(name: String, default: FiniteDuration, smokeDefault: FiniteDuration): FiniteDuration =
    sys.props.get(name).map(v => parse(name, v)(toDuration)).getOrElse(if (smoke) smokeDefault else default)

  /** Base URL of the gateway (`gateway.url`). */
  def gatewayUrl: String = string("gateway.url", "http://127.0.0.1:8080")

  /** Base URL of the provider emulator (`provider.url`). */
  def providerUrl: String = string("provider.url", "http://127.0.0.1:8090")

  /** Base URL of the messaging service (`messaging.url`). */
  def messagingUrl: String = string("messaging.url", "http://127.0.0.1:8082")

  /** `host:port` of the calculator (`calculator.target`). */
  def calculatorTarget: String = string("calculator.target", "127.0.0.1:50051")

  private def toDuration(text: String): FiniteDuration = {
    val t = text.trim
    if (t.forall(_.isDigit)) t.toLong.seconds
    else Duration(t.replaceAll("([0-9])([a-z])", "$1 $2")) match {
      case d: FiniteDuration => d
      case _ => throw new IllegalArgumentException(s"not a finite duration: $text")
    }
  }

  private def parse[T](name: String, value: String)(f: String => T): T =
    try f(value.trim)
    catch {
      case e: Exception => throw new IllegalArgumentException(s"system property $name=$value: ${e.getMessage}", e)
    }
}
