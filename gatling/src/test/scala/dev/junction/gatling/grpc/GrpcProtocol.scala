package dev.junction.gatling.grpc

import java.nio.file.{Files, Path, Paths}

import scala.concurrent.duration._

import io.gatling.core.CoreComponents
import io.gatling.core.config.GatlingConfiguration
import io.gatling.core.protocol.{Protocol, ProtocolKey}

/**
 * Where and how virtual users reach a gRPC server: a target, how many connections the
 * calls are spread over, transport security and call credentials. Built with
 * [[Predef.grpcProtocol]]; one pool of channels is shared by every scenario of a
 * simulation that uses an equal protocol, and shut down when the simulation ends.
 *
 * @param target    `host:port` or any grpc-java target URI
 * @param channels  number of channels (one HTTP/2 connection each) used round-robin
 * @param security  plaintext, TLS or mutual TLS
 * @param credentials bearer token sent as `authorization` metadata on every call, if any
 * @param deadline  deadline of each call, unless a request sets its own
 * @param authority overrides the `:authority` and the name checked in the server's certificate
 */
final case class GrpcProtocol(
    target: String,
    channels: Int,
    security: GrpcProtocol.Security,
    credentials: Option[GrpcProtocol.Credentials],
    deadline: FiniteDuration,
    authority: Option[String]
) extends Protocol {

  import GrpcProtocol._

  def target(target: String): GrpcProtocol = copy(target = target)

  def channels(count: Int): GrpcProtocol = {
    require(count > 0, s"channels must be positive, got $count")
    copy(channels = count)
  }

  /** No transport security (the default). */
  def plaintext: GrpcProtocol = copy(security = Plaintext)

  /** TLS, trusting the CA certificates in the PEM file `trustedCa`. */
  def tls(trustedCa: String): GrpcProtocol = copy(security = Tls(existing("trusted CA", trustedCa)))

  /**
   * Mutual TLS: trusts `trustedCa` and presents the client certificate chain in
   * `certificate` with its PKCS#8 `privateKey` (all PEM files).
   */
  def mtls(trustedCa: String, certificate: String, privateKey: String): GrpcProtocol =
    copy(security = Mtls(existing("trusted CA", trustedCa), existing("client certificate", certificate),
      existing("client private key", privateKey)))

  /** Sends `authorization: Bearer <token>` on every call. */
  def jwt(token: String): GrpcProtocol = {
    require(token != null && token.trim.nonEmpty, "the bearer token is empty")
    copy(credentials = Some(StaticToken(token.trim)))
  }

  /**
   * Sends `authorization: Bearer <token>` on every call, with an HS256 token signed with
   * `secret` (at least 32 bytes) for `issuer` and, if given, `audience`. Tokens live
   * `ttl` and a fresh one is minted before the current one expires.
   */
  def jwt(secret: String, issuer: String, audience: Option[String] = None, subject: String = "gatling",
      ttl: FiniteDuration = 1.hour): GrpcProtocol = {
    val signed = SignedToken(secret, issuer, audience.map(_.trim).filter(_.nonEmpty), subject, ttl)
    BearerTokens.validate(signed)
    copy(credentials = Some(signed))
  }

  /** Sends no call credentials (the default). */
  def noCredentials: GrpcProtocol = copy(credentials = None)

  def deadline(deadline: FiniteDuration): GrpcProtocol = copy(deadline = deadline)

  def authority(authority: String): GrpcProtocol = copy(authority = Option(authority).filter(_.nonEmpty))

  /** A short description for logs; never contains a token or a secret. */
  def describe: String = {
    val sec = security match {
      case Plaintext => "plaintext"
      case _: Tls    => "tls"
      case _: Mtls   => "mtls"
    }
    val creds = credentials match {
      case None                  => ""
      case Some(_: StaticToken)  => ", jwt (given token)"
      case Some(s: SignedToken)  => s", jwt (HS256, iss=${s.issuer}${s.audience.fold("")(a => s", aud=$a")})"
    }
    s"$target, $sec$creds, $channels channel(s)"
  }
}

object GrpcProtocol {

  /** Default number of channels, overridden by the `grpc.channels` system property. */
  val DefaultChannels: Int = sys.props.get("grpc.channels").map(_.trim.toInt).getOrElse(4)

  val Default: GrpcProtocol =
    GrpcProtocol("127.0.0.1:50051", DefaultChannels, Plaintext, None, 30.seconds, None)

  sealed trait Security
  case object Plaintext extends Security
  final case class Tls(trustedCa: Path) extends Security
  final case class Mtls(trustedCa: Path, certificate: Path, privateKey: Path) extends Security

  sealed trait Credentials
  final case class StaticToken(token: String) extends Credentials {
    override def toString: String = "StaticToken(***)"
  }
  final case class SignedToken(secret: String, issuer: String, audience: Option[String], subject: String,
      ttl: FiniteDuration) extends Credentials {
    override def toString: String = s"SignedToken(***, $issuer, $audience, $subject, $ttl)"
  }

  val Key: ProtocolKey[GrpcProtocol, GrpcComponents] = new ProtocolKey[GrpcProtocol, GrpcComponents] {

    override def protocolClass: Class[Protocol] = classOf[GrpcProtocol].asInstanceOf[Class[Protocol]]

    override def defaultProtocolValue(configuration: GatlingConfiguration): GrpcProtocol =
      throw new IllegalStateException("A gRPC request needs a grpcProtocol: add .protocols(grpcProtocol.target(...))")

    override def newComponents(coreComponents: CoreComponents): GrpcProtocol => GrpcComponents =
      GrpcComponents.factory(coreComponents)
  }

  private def existing(what: String, file: String): Path = {
    require(file != null && file.trim.nonEmpty, s"the $what file is not set")
    val path = Paths.get(file.trim.stripPrefix("file:"))
    require(Files.isReadable(path), s"the $what file $path does not exist or cannot be read")
    path
  }
}
