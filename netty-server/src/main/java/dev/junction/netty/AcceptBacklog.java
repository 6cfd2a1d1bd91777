package dev.junction.netty;

import io.netty.channel.ChannelOption;
import io.netty.channel.ServerChannelRecvByteBufAllocator;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

/**
 * Accepts the connections waiting in the listening socket's backlog at every turn of the
 * event loop, up to {@link #PER_TURN} a turn. Netty's server channel goes on accepting
 * only while it can tell that more connections may be waiting, which its epoll transport
 * cannot (from Netty 4.2 on), so it accepts one connection a turn. On a busy loop a turn
 * lasts milliseconds, and a burst of new connections (clients opening more when answers
 * slow down, a restart under load) waited in the backlog for seconds, out of the
 * application's sight: neither served nor refused, until clients gave up. Accepted at
 * once, their requests reach the application, which serves them or sheds them with its
 * own answer.
 */
public final class AcceptBacklog {

	/** The most connections accepted in one turn of the event loop. */
	static final int PER_TURN = 256;

	private AcceptBacklog() {
	}

	/**
	 * Sets the listening channel to accept until its backlog is empty or the turn's most:
	 * a bean for a Spring Boot server, or applied to a bare {@code HttpServer}.
	 */
	public static NettyServerCustomizer customizer() {
		return (server) -> server.option(ChannelOption.RCVBUF_ALLOCATOR,
				new ServerChannelRecvByteBufAllocator().respectMaybeMoreData(false).maxMessagesPerRead(PER_TURN));
	}

}
