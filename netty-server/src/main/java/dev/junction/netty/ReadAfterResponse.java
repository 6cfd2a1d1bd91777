package dev.junction.netty;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Asks for the next read of a keep-alive connection once a response's operations have
 * ended. Reactor Netty's HTTP/1.1 handler reads on demand and holds back a request that
 * arrives while the previous one is still finishing; when it then answers the held-back
 * request at once, it can drain what it held without asking for another read, and the
 * connection is never read again: the client's next request waits forever
 * (reactor/reactor-netty#4361, fixed in Reactor Netty 1.3.8, which needs a newer Netty
 * than the one managed here). This handler sits after Reactor Netty's and, each time a
 * response's operations end, queues a read behind whatever that handler queued. A read
 * asked for while one is pending, or while a request is in progress, changes nothing: a
 * request read early is held back as a pipelined one.
 */
@Sharable
final class ReadAfterResponse extends ChannelInboundHandlerAdapter {

	/** The handler's name in the pipeline. */
	static final String NAME = "junction.readAfterResponse";

	/** The event Reactor Netty fires when a response's operations end (not public). */
	static final String TERMINATED = "reactor.netty.http.server.HttpServerOperationsTerminatedEvent";

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
		if (TERMINATED.equals(event.getClass().getName())) {
			ctx.executor().execute(() -> {
				if (ctx.channel().isActive()) {
					ctx.read();
				}
			});
		}
		super.userEventTriggered(ctx, event);
	}

}
