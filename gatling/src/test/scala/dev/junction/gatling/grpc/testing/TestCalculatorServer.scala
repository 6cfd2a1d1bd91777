package dev.junction.gatling.grpc.testing

import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets
import java.nio.file.Path
import java.util.concurrent.{ConcurrentHashMap, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger

import com.nimbusds.jose.JWSAlgorithm
import com.nimbusds.jose.jwk.source.ImmutableSecret
import com.nimbusds.jose.proc.{JWSVerificationKeySelector, SecurityContext}
import com.nimbusds.jwt.JWTClaimsSet
import com.nimbusds.jwt.proc.{DefaultJWTClaimsVerifier, DefaultJWTProcessor}
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
import io.grpc.stub.StreamObserver
import io.grpc.{Attributes, Grpc, InsecureServerCredentials, Metadata, Server, ServerCall, ServerCallHandler,
  ServerCredentials, ServerInterceptor, ServerInterceptors, ServerTransportFilter, Status, TlsServerCredentials}

import dev.junction.calculator.v1.{BinaryOperation, CalculationResult, CalculatorGrpc}

/**
 * A tiny Calculator on a real Netty port of 127.0.0.1: plaintext, TLS, mutual TLS or
 * JWT-protected (HS256, required issuer, as calculator-service checks). It counts the
 * connections it has seen and those still open.
 */
final class TestCalculatorServer private (server: Server) extends AutoCloseable {

  private[testing] val openConnections = new AtomicInteger()
  private[testing] val clientAddresses = ConcurrentHashMap.newKeySet[String]()

  def port: Int = server.getPort

  def target: String = s"127.0.0.1:$port"

  /** Connections open now. */
  def connectionsOpen: Int = openConnections.get()

  /** Distinct client connections (address and port) seen since start. */
  def connectionsSeen: Int = clientAddresses.size()

  /** Waits up to `timeoutMillis` for every client connection to close. */
  def awaitNoConnection(timeoutMillis: Long): Boolean = {
    val deadline = System.currentTimeMillis() + timeoutMillis
    while (connectionsOpen > 0 && System.currentTimeMillis() < deadline) Thread.sleep(20)
    connectionsOpen == 0
  }

  override def close(): Unit = server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS)
}

object TestCalculatorServer {

  def plaintext(): TestCalculatorServer = start(InsecureServerCredentials.create(), None)

  def tls(certificate: Path, key: Path): TestCalculatorServer =
    start(TlsServerCredentials.create(certificate.toFile, key.toFile), None)

  def mtls(certificate: Path, key: Path, trustedCa: Path): TestCalculatorServer =
    start(TlsServerCredentials.newBuilder().keyManager(certificate.toFile, key.toFile).trustManager(trustedCa.toFile)
      .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE).build(), None)

  def jwt(secret: String, issuer: String, audience: Option[String]): TestCalculatorServer =
    start(InsecureServerCredentials.create(), Some(new JwtInterceptor(secret, issuer, audience)))

  private def start(credentials: ServerCredentials, interceptor: Option[ServerInterceptor]): TestCalculatorServer = {
    var holder: TestCalculatorServer = null
    val filter = new ServerTransportFilter {
      override def transportReady(attributes: Attributes): Attributes = {
        holder.openConnections.incrementAndGet()
        holder.clientAddresses.add(String.valueOf(attributes.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)))
        attributes
      }
      override def transportTerminated(attributes: Attributes): Unit = holder.openConnections.decrementAndGet()
    }
    val service = interceptor.fold(new Calculator().bindService())(ServerInterceptors.intercept(new Calculator(), _))
    val server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), credentials)
      .addService(service)
      .addTransportFilter(filter)
      .directExecutor()
      .build()
    holder = new TestCalculatorServer(server)
    server.start()
    holder
  }

  private final class Calculator extends CalculatorGrpc.CalculatorImplBase {
    override def add(request: BinaryOperation, response: StreamObserver[CalculationResult]): Unit =
      reply(request.getA + request.getB, response)
    override def subtract(request: BinaryOperation, response: StreamObserver[CalculationResult]): Unit =
      reply(request.getA - request.getB, response)
    override def multiply(request: BinaryOperation, response: StreamObserver[CalculationResult]): Unit =
      reply(request.getA * request.getB, response)
    override def divide(request: BinaryOperation, response: StreamObserver[CalculationResult]): Unit =
      if (request.getB == 0.0)
        response.onError(Status.INVALID_ARGUMENT.withDescription("division by zero: b must not be 0").asRuntimeException())
      else reply(request.getA / request.getB, response)

    private def reply(result: Double, response: StreamObserver[CalculationResult]): Unit = {
      response.onNext(CalculationResult.newBuilder().setResult(result).build())
      response.onCompleted()
    }
  }

  /** Refuses calls without a valid HS256 bearer token with UNAUTHENTICATED. */
  private final class JwtInterceptor(secret: String, issuer: String, audience: Option[String]) extends ServerInterceptor {

    private val authorization = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)

    private val processor = {
      val p = new DefaultJWTProcessor[SecurityContext]()
      p.setJWSKeySelector(new JWSVerificationKeySelector[SecurityContext](JWSAlgorithm.HS256,
        new ImmutableSecret[SecurityContext](secret.getBytes(StandardCharsets.UTF_8))))
      p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier[SecurityContext](audience.orNull,
        new JWTClaimsSet.Builder().issuer(issuer).build(), java.util.Set.of("exp")))
      p
    }

    override def interceptCall[Req, Resp](call: ServerCall[Req, Resp], headers: Metadata,
        next: ServerCallHandler[Req, Resp]): ServerCall.Listener[Req] = {
      val header = Option(headers.get(authorization)).filter(_.regionMatches(true, 0, "Bearer ", 0, 7))
      val refusal = header match {
        case None => Some("missing bearer token")
        case Some(value) =>
          try { processor.process(value.substring(7).trim, null); None }
          catch { case e: Exception => Some("invalid bearer token: " + e.getMessage) }
      }
      refusal match {
        case None => next.startCall(call, headers)
        case Some(reason) =>
          call.close(Status.UNAUTHENTICATED.withDescription(reason), new Metadata())
          new ServerCall.Listener[Req] {}
      }
    }
  }
}
