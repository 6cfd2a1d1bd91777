package dev.junction.gatling.grpc.testing

import io.gatling.core.Predef._
import io.grpc.Status

import dev.junction.calculator.v1.{BinaryOperation, CalculatorGrpc}
import dev.junction.gatling.grpc.Predef._

/** The simulations that GrpcUnaryActionIntegrationTests runs; their servers come from system properties. */
private[grpc] object TestSimulations {

  def property(name: String): String =
    sys.props.getOrElse(name, throw new IllegalStateException(s"system property $name is not set"))

  def op(a: Double, b: Double): BinaryOperation = BinaryOperation.newBuilder().setA(a).setB(b).build()

  /** Five users, 20 additions each, then calls that must fail in known ways. */
  val CallsPerUser = 20
  val Users = 5

  def add(name: String) = grpc(name).unary(CalculatorGrpc.getAddMethod)
    .payload(session => op(session.userId.toDouble, 2))
    .check("sum")((request, response) => response.getResult == request.getA + request.getB)
}

/** Plaintext calls: successes, an expected error status, an unexpected one, a failed check. */
class UnaryCallsSimulation extends Simulation {

  import TestSimulations._

  private val protocol = grpcProtocol.target(property("grpc.test.plaintext.target")).channels(3)

  private val calls = scenario("Unary calls")
    .repeat(CallsPerUser)(exec(add("Add")))
    .exec(grpc("Divide by zero, expected").unary(CalculatorGrpc.getDivideMethod).payload(op(1, 0))
      .expectStatus(Status.Code.INVALID_ARGUMENT))
    .exec(grpc("Divide by zero").unary(CalculatorGrpc.getDivideMethod).payload(op(1, 0)))
    .exec(grpc("Divide, expecting an error").unary(CalculatorGrpc.getDivideMethod).payload(op(1, 2))
      .expectStatus(Status.Code.INVALID_ARGUMENT))
    .exec(grpc("Multiply, wrong check").unary(CalculatorGrpc.getMultiplyMethod).payload(op(3, 4))
      .check("product is 13")((_, response) => response.getResult == 13))
    .exec(grpc("Payload throws").unary(CalculatorGrpc.getAddMethod)
      .payload((_: Session) => throw new IllegalStateException("no operands")))
    .exec(grpc("Subtract, saved").unary(CalculatorGrpc.getSubtractMethod).payload(op(10, 4)).saveAs("difference"))
    .exec(grpc("Add the saved difference").unary(CalculatorGrpc.getAddMethod)
      .payload(session => op(session("difference").as[dev.junction.calculator.v1.CalculationResult].getResult, 1))
      .check("7")((_, response) => response.getResult == 7))

  setUp(calls.inject(atOnceUsers(Users)))
    .protocols(protocol)
    .assertions(details("Add").failedRequests.count.is(0), details("Divide by zero").failedRequests.count.is(Users.toLong))
}

/** TLS, mutual TLS and JWT-protected servers, reached with and without the right credentials. */
class SecureCallsSimulation extends Simulation {

  import TestSimulations._

  private val ca = property("grpc.test.ca")
  private val mtlsTarget = property("grpc.test.mtls.target")
  private val jwtTarget = property("grpc.test.jwt.target")
  private val secret = property("grpc.test.jwt.secret")
  private val issuer = property("grpc.test.jwt.issuer")
  private val token = property("grpc.test.jwt.token")

  private def calls(name: String, protocol: io.gatling.core.protocol.Protocol, request: String, customize: dev.junction.gatling.grpc.GrpcUnaryActionBuilder[BinaryOperation, dev.junction.calculator.v1.CalculationResult] => dev.junction.gatling.grpc.GrpcUnaryActionBuilder[BinaryOperation, dev.junction.calculator.v1.CalculationResult] = identity) =
    scenario(name).repeat(5)(exec(customize(add(request)))).inject(atOnceUsers(2)).protocols(protocol)

  setUp(
    calls("TLS", grpcProtocol.target(property("grpc.test.tls.target")).tls(ca), "TLS Add"),
    calls("mTLS", grpcProtocol.target(mtlsTarget).mtls(ca, property("grpc.test.client.cert"), property("grpc.test.client.key")),
      "mTLS Add"),
    calls("mTLS without a client certificate", grpcProtocol.target(mtlsTarget).tls(ca), "mTLS Add without certificate"),
    calls("JWT minted", grpcProtocol.target(jwtTarget).jwt(secret, issuer, audience = Some("calculator")), "JWT Add minted"),
    calls("JWT given", grpcProtocol.target(jwtTarget).jwt(token), "JWT Add given"),
    calls("JWT in the request's metadata", grpcProtocol.target(jwtTarget), "JWT Add in metadata",
      _.metadata("authorization", s"Bearer $token")),
    calls("JWT missing", grpcProtocol.target(jwtTarget), "JWT Add without token"),
    calls("JWT wrong secret", grpcProtocol.target(jwtTarget).jwt("another-secret-that-is-also-32-bytes-long", issuer,
      audience = Some("calculator")), "JWT Add wrong secret"),
    calls("JWT wrong audience", grpcProtocol.target(jwtTarget).jwt(secret, issuer, audience = Some("elsewhere")),
      "JWT Add wrong audience")
  )
}
