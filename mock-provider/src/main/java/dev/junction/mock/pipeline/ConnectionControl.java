package dev.junction.mock.pipeline;

import java.util.function.Consumer;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import reactor.netty.NettyInbound;

import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Reaches under WebFlux to the Reactor Netty connection of a request, to break it on
 * purpose.
 */
final class ConnectionControl {

	private ConnectionControl() {
	}

	/**
	 * Closes the connection (FIN) after everything written so far is flushed, sending no
	 * terminating chunk: the client sees the response body cut short. Writes handed to
	 * Reactor Netty before this call go first (its event loop runs them in order), unless
	 * a client that stopped reading left over 128 writes unfinished. With no write at
	 * all, not even the status line goes out. False when the server is not Reactor Netty.
	 */
	static boolean closeAfterWrites(ServerRequest request) {
		return withChannel(request, (channel) -> channel.eventLoop()
			.execute(() -> channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE)));
	}

	/**
	 * Closes the connection with a TCP reset (RST, no FIN); false when the server is not
	 * Reactor Netty.
	 */
	static boolean reset(ServerRequest request) {
		return withChannel(request, (channel) -> {
			channel.config().setOption(ChannelOption.SO_LINGER, 0);
			channel.close();
		});
	}

	private static boolean withChannel(ServerRequest request, Consumer<Channel> action) {
		Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request.exchange().getRequest());
		if (!(nativeRequest instanceof NettyInbound inbound)) {
			return false;
		}
		inbound.withConnection((connection) -> action.accept(connection.channel()));
		return true;
	}

}
