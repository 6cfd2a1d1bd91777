package dev.junction.gatling.grpc

import io.gatling.core.session.Expression

/**
 * The gRPC DSL, beside Gatling's own:
 * {{{
 * import io.gatling.core.Predef._
 * import dev.junction.gatling.grpc.Predef._
 *
 * val protocol = grpcProtocol.target("127.0.0.1:50051").channels(4)   // .tls(ca) .mtls(ca, cert, key) .jwt(...)
 * val add = grpc("Add").unary(CalculatorGrpc.getAddMethod)
 *   .payload(session => BinaryOperation.newBuilder().setA(2).setB(3).build())
 *   .check("sum")((req, resp) => resp.getResult == req.getA + req.getB)
 * val divideByZero = grpc("Divide by zero").unary(CalculatorGrpc.getDivideMethod)
 *   .payload(BinaryOperation.newBuilder().setA(1).build())
 *   .expectStatus(Status.Code.INVALID_ARGUMENT)
 * }}}
 */
object Predef {

  /** A protocol to `127.0.0.1:50051`, plaintext, over `grpc.channels` (default 4) channels. */
  def grpcProtocol: GrpcProtocol = GrpcProtocol.Default

  /** A gRPC request with this name in the statistics. */
  def grpc(requestName: Expression[String]): GrpcRequestName = new GrpcRequestName(requestName)
}
