package dev.junction.gatling.grpc

import java.util.concurrent.{RejectedExecutionException, TimeUnit}

import scala.util.control.NonFatal

import io.gatling.commons.stats.{KO, OK}
import io.gatling.commons.util.Clock
import io.gatling.commons.validation.Validation
import io.gatling.core.CoreComponents
import io.gatling.core.action.{Action, RequestAction}
import io.gatling.core.session.{Expression, Session}
import io.gatling.core.stats.StatsEngine
import io.gatling.core.util.NameGen
import io.grpc.{CallOptions, ClientCall, Metadata, Status}

/**
 * Makes one unary call, asynchronously. The call is timed with Gatling's clock from just
 * before it starts to the moment its status arrives; the outcome is logged and the user
 * moves on from its own event loop.
 */
final class GrpcUnaryAction[Req, Resp](
    builder: GrpcUnaryActionBuilder[Req, Resp],
    payload: Expression[Req],
    components: GrpcComponents,
    core: CoreComponents,
    override val next: Action
) extends RequestAction
    with NameGen {

  override val name: String = genName("grpcUnary")

  override def requestName: Expression[String] = builder.requestName

  override def statsEngine: StatsEngine = core.statsEngine

  override def clock: Clock = core.clock

  private val deadlineNanos = builder.deadline.getOrElse(components.protocol.deadline).toNanos

  private val metadataKeys = builder.metadata.map { case (key, _) => key -> Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER) }.toMap

  override def sendRequest(session: Session): Validation[Unit] =
    for {
      resolvedName <- requestName(session)
      request <- payload(session)
      metadata <- GrpcUnaryActionBuilder.resolve(builder.metadata, session)
    } yield {
      val headers = new Metadata()
      metadata.foreach { case (key, value) =>
        if (key.equalsIgnoreCase("authorization")) headers.discardAll(GrpcComponents.Authorization)
        headers.put(metadataKeys(key), value)
      }
      val options = CallOptions.DEFAULT.withDeadlineAfter(deadlineNanos, TimeUnit.NANOSECONDS)
      val call = components.channel().newCall(builder.method, options)
      val start = clock.nowMillis
      val listener = new ResponseListener(session, resolvedName, request, start)
      try {
        call.start(listener, headers)
        call.request(2) // one response expected; a second one would be a protocol error the call reports
        call.sendMessage(request)
        call.halfClose()
      } catch {
        case NonFatal(e) =>
          call.cancel("failed to send the request", e)
          throw e
      }
    }

  private final class ResponseListener(session: Session, requestName: String, request: Req, start: Long)
      extends ClientCall.Listener[Resp] {

    @volatile private var response: Option[Resp] = None

    override def onMessage(message: Resp): Unit = response = Some(message)

    override def onClose(status: Status, trailers: Metadata): Unit = {
      val end = clock.nowMillis
      try session.eventLoop.execute(() => complete(session, requestName, request, start, end, status, response))
      catch {
        case _: RejectedExecutionException =>
          logger.debug(s"$requestName completed after the simulation's event loops stopped")
      }
    }
  }

  private def complete(session: Session, requestName: String, request: Req, start: Long, end: Long, status: Status,
      response: Option[Resp]): Unit = {
    val failure: Option[String] =
      if (status.getCode != builder.expectedStatus) {
        val got = status.getCode.name + Option(status.getDescription).fold("")(": " + _)
        Some(if (builder.expectedStatus == Status.Code.OK) got else s"expected ${builder.expectedStatus.name}, got $got")
      } else if (status.isOk) {
        response match {
          case None => Some("OK without a response message")
          case Some(r) => builder.checks.collectFirst {
            case c if !safely(c.condition(request, r)) => s"check failed: ${c.description}"
          }
        }
      } else None
    statsEngine.logResponse(session.scenario, session.groups, requestName, start, end,
      if (failure.isEmpty) OK else KO, Some(status.getCode.name), failure)
    val timed = session.logGroupRequestTimings(start, end)
    val saved = (builder.saveAs, response) match {
      case (Some(key), Some(r)) => timed.set(key, r)
      case _ => timed
    }
    next ! (if (failure.isEmpty) saved else saved.markAsFailed)
  }

  private def safely(condition: => Boolean): Boolean =
    try condition
    catch { case NonFatal(_) => false }
}
