package dev.junction.gatling.grpc

import java.util.concurrent.{ConcurrentHashMap, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger

import com.typesafe.scalalogging.StrictLogging
import io.gatling.core.CoreComponents
import io.gatling.core.protocol.ProtocolComponents
import io.gatling.core.session.Session
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
import io.grpc.{CallOptions, Channel, ChannelCredentials, ClientCall, ClientInterceptor, ClientInterceptors,
  ForwardingClientCall, InsecureChannelCredentials, ManagedChannel, Metadata, MethodDescriptor, TlsChannelCredentials}

import dev.junction.gatling.grpc.GrpcProtocol.{Mtls, Plaintext, Tls}

/**
 * The channels of one [[GrpcProtocol]]: `protocol.channels` grpc-java Netty channels, each
 * its own HTTP/2 connection, handed out round-robin. They connect when the simulation
 * starts and are shut down when it ends.
 */
final class GrpcComponents private (val protocol: GrpcProtocol) extends ProtocolComponents with StrictLogging {

  private val managed: Vector[ManagedChannel] = Vector.fill(protocol.channels)(GrpcComponents.newChannel(protocol))

  private val channels: Vector[Channel] = protocol.credentials match {
    case None => managed
    case Some(credentials) =>
      val interceptor = new GrpcComponents.BearerInterceptor(BearerTokens(credentials))
      managed.map(ClientInterceptors.intercept(_, interceptor))
  }

  private val nextChannel = new AtomicInteger()

  managed.foreach(_.getState(true)) // connect now rather than on the first call

  logger.info(s"gRPC channels open: ${protocol.describe}")

  /** The channel for the next call, round-robin. */
  def channel(): Channel = channels(Math.floorMod(nextChannel.getAndIncrement(), channels.size))

  override def onStart: Session => Session = Session.Identity

  override def onExit: Session => Unit = ProtocolComponents.NoopOnExit

  /** Stops new calls, lets calls in flight finish for up to 5 s, then closes the connections. */
  def shutdown(): Unit = {
    managed.foreach(_.shutdown())
    managed.foreach { channel =>
      if (!channel.awaitTermination(5, TimeUnit.SECONDS)) channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS)
    }
    logger.info(s"gRPC channels closed: ${protocol.describe}")
  }
}

object GrpcComponents {

  /**
   * Gatling builds components once per scenario; this factory, made once per simulation,
   * gives every scenario with an equal protocol the same channels, and closes them all
   * when the simulation's actor system terminates.
   */
  private[grpc] def factory(core: CoreComponents): GrpcProtocol => GrpcComponents = {
    val byProtocol = new ConcurrentHashMap[GrpcProtocol, GrpcComponents]()
    protocol =>
      byProtocol.computeIfAbsent(protocol, p => {
        val components = new GrpcComponents(p)
        core.actorSystem.registerOnTermination(components.shutdown())
        components
      })
  }

  private def newChannel(protocol: GrpcProtocol): ManagedChannel = {
    val builder = NettyChannelBuilder
      .forTarget(protocol.target, credentials(protocol.security))
      .directExecutor() // callbacks only hand the result over to the virtual user's event loop
      .userAgent("junction-gatling")
    protocol.authority.foreach(builder.overrideAuthority)
    builder.build()
  }

  private def credentials(security: GrpcProtocol.Security): ChannelCredentials = security match {
    case Plaintext => InsecureChannelCredentials.create()
    case Tls(ca) => TlsChannelCredentials.newBuilder().trustManager(ca.toFile).build()
    case Mtls(ca, certificate, key) =>
      TlsChannelCredentials.newBuilder().trustManager(ca.toFile).keyManager(certificate.toFile, key.toFile).build()
  }

  private[grpc] val Authorization: Metadata.Key[String] = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER)

  private final class BearerInterceptor(tokens: BearerTokens) extends ClientInterceptor {
    override def interceptCall[Req, Resp](method: MethodDescriptor[Req, Resp], options: CallOptions,
        next: Channel): ClientCall[Req, Resp] =
      new ForwardingClientCall.SimpleForwardingClientCall[Req, Resp](next.newCall(method, options)) {
        override def start(listener: ClientCall.Listener[Resp], headers: Metadata): Unit = {
          if (!headers.containsKey(Authorization)) headers.put(Authorization, "Bearer " + tokens.current())
          super.start(listener, headers)
        }
      }
  }
}
