package dev.junction.gateway.provider;

import java.time.Duration;

import io.netty.channel.ChannelOption;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The Reactor Netty client an HTTP provider adapter calls its upstream with: pooled, kept
 * alive.
 */
public final class PooledHttpClient {

	private PooledHttpClient() {
	}

	/**
	 * @param pool the connection pool's name
	 * @param connectTimeout the longest a TCP connect may take
	 * @param maxConnections pooled connections; further calls wait for one
	 */
	public static HttpClient create(String pool, Duration connectTimeout, int maxConnections) {
		ConnectionProvider connections = ConnectionProvider.builder(pool)
			.maxConnections(maxConnections)
			.pendingAcquireMaxCount(-1)
			.maxIdleTime(Duration.ofSeconds(30))
			.evictInBackground(Duration.ofSeconds(30))
			.build();
		return HttpClient.create(connections)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(connectTimeout.toMillis()))
			.keepAlive(true)
			.compress(false);
	}

}
