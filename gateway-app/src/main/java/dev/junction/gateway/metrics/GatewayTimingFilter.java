package dev.junction.gateway.metrics;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.routing.Target;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Notes when a request arrives, writes {@code Server-Timing} on every response as it
 * commits (errors included), and, once the response is written, records the gateway's own
 * time ({@code junction.gateway.overhead}) and its upstream waits
 * ({@code junction.gateway.upstream}) for requests that went through the pipeline.
 */
public final class GatewayTimingFilter implements WebFilter {

	private static final String START = GatewayTimingFilter.class.getName() + ".start";

	private final GatewayMetrics metrics;

	public GatewayTimingFilter(GatewayMetrics metrics) {
		this.metrics = metrics;
	}

	/** When the request arrived, in {@link System#nanoTime()} terms. */
	public static long start(ServerWebExchange exchange) {
		Long start = exchange.getAttribute(START);
		return (start != null) ? start : System.nanoTime();
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		long start = System.nanoTime();
		exchange.getAttributes().put(START, start);
		ServerHttpResponse response = exchange.getResponse();
		response.beforeCommit(() -> Mono.fromRunnable(() -> response.getHeaders()
			.set(ServerTiming.HEADER, serverTiming(exchange.getAttribute(ChatExchange.ATTRIBUTE), start))));
		return chain.filter(exchange).doFinally((signal) -> {
			ChatExchange chat = exchange.getAttribute(ChatExchange.ATTRIBUTE);
			if (chat != null) {
				this.metrics.overhead(chat.entryPoint(), chat.gatewayNanos());
				long upstream = chat.upstreamNanos();
				Target target = chat.target();
				if (upstream > 0 && target != null) {
					this.metrics.upstream(chat.entryPoint(), target.provider(), upstream);
				}
			}
		});
	}

	private static String serverTiming(ChatExchange chat, long start) {
		return (chat != null) ? ServerTiming.of(chat.gatewayNanos(), chat.upstreamNanos())
				: ServerTiming.of(System.nanoTime() - start, 0);
	}

}
