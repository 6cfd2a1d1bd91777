package dev.junction.gateway.metrics;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.routing.Target;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Notes when a request arrives and, once its response is written, records the gateway's own
 * time ({@code junction.gateway.overhead}) and its upstream waits ({@code junction.gateway.upstream})
 * for requests that went through the pipeline.
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
		exchange.getAttributes().put(START, System.nanoTime());
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

}
