package dev.junction.gatling.grpc

import scala.concurrent.duration.FiniteDuration
import scala.util.control.NonFatal

import io.gatling.commons.validation.{Failure, Success, Validation}
import io.gatling.core.action.Action
import io.gatling.core.action.builder.ActionBuilder
import io.gatling.core.session.{Expression, Session}
import io.gatling.core.structure.ScenarioContext
import io.grpc.{MethodDescriptor, Status}

/** `grpc("name")`: names a request; `.unary(method)` then says which call it makes. */
final class GrpcRequestName(requestName: Expression[String]) {

  /** A unary call of `method`, for example `CalculatorGrpc.getAddMethod`. */
  def unary[Req, Resp](method: MethodDescriptor[Req, Resp]): GrpcUnaryActionBuilder[Req, Resp] = {
    require(method.getType == MethodDescriptor.MethodType.UNARY, s"${method.getFullMethodName} is not a unary method")
    GrpcUnaryActionBuilder(requestName, method, None, Status.Code.OK, Nil, Nil, None, None)
  }
}

/**
 * A unary gRPC call. The call is OK when the server answers with the expected status
 * (`OK` unless [[expectStatus]] says otherwise) and every [[check]] holds; the response
 * code recorded is the status code's name.
 */
final case class GrpcUnaryActionBuilder[Req, Resp](
    requestName: Expression[String],
    method: MethodDescriptor[Req, Resp],
    payload: Option[Expression[Req]],
    expectedStatus: Status.Code,
    checks: List[GrpcUnaryActionBuilder.Check[Req, Resp]],
    metadata: List[(String, Expression[String])],
    deadline: Option[FiniteDuration],
    saveAs: Option[String]
) extends ActionBuilder {

  /** The same request message on every call. */
  def payload(request: Req): GrpcUnaryActionBuilder[Req, Resp] = {
    val constant = Success(request)
    copy(payload = Some(_ => constant))
  }

  /** The request message, made from the virtual user's session on each call. */
  def payload(request: Session => Req): GrpcUnaryActionBuilder[Req, Resp] =
    copy(payload = Some(session =>
      try Success(request(session))
      catch { case NonFatal(e) => Failure(s"payload of ${method.getFullMethodName} failed: $e") }))

  /** The request message as a Gatling expression, which may fail with a message. */
  def payloadExpression(request: Expression[Req]): GrpcUnaryActionBuilder[Req, Resp] = copy(payload = Some(request))

  /** The status that makes the call OK, for example `INVALID_ARGUMENT` for a division by zero. */
  def expectStatus(code: Status.Code): GrpcUnaryActionBuilder[Req, Resp] = copy(expectedStatus = code)

  /** A condition on the response of a call with status `OK`; the call is KO, with `description`, if it does not hold. */
  def check(description: String)(condition: (Req, Resp) => Boolean): GrpcUnaryActionBuilder[Req, Resp] =
    copy(checks = checks :+ GrpcUnaryActionBuilder.Check(description, condition))

  /** An ASCII metadata entry sent with the call (`authorization` here replaces the protocol's token). */
  def metadata(key: String, value: Expression[String]): GrpcUnaryActionBuilder[Req, Resp] =
    copy(metadata = metadata :+ (key -> value))

  /** This call's deadline, instead of the protocol's. */
  def deadline(deadline: FiniteDuration): GrpcUnaryActionBuilder[Req, Resp] = copy(deadline = Some(deadline))

  /** Stores the response message in the session under `key`. */
  def saveAs(key: String): GrpcUnaryActionBuilder[Req, Resp] = copy(saveAs = Some(key))

  override def build(ctx: ScenarioContext, next: Action): Action = {
    val request = payload.getOrElse(throw new IllegalStateException(
      s"gRPC request to ${method.getFullMethodName} has no payload: add .payload(...)"))
    val components = ctx.protocolComponentsRegistry.components(GrpcProtocol.Key)
    new GrpcUnaryAction(this, request, components, ctx.coreComponents, next)
  }
}

object GrpcUnaryActionBuilder {

  final case class Check[Req, Resp](description: String, condition: (Req, Resp) => Boolean)

  private[grpc] def resolve(metadata: List[(String, Expression[String])], session: Session): Validation[List[(String, String)]] =
    metadata.foldRight[Validation[List[(String, String)]]](Success(Nil)) { case ((key, value), acc) =>
      for (rest <- acc; v <- value(session)) yield (key -> v) :: rest
    }
}
