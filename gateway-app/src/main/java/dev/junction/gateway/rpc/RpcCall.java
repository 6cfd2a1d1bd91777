package dev.junction.gateway.rpc;

import java.util.concurrent.atomic.AtomicReference;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatExchange.RateLimitStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who is calling and through which protocol; shared by every call of one HTTP request,
 * which also gathers the caller's rate-limit budget as the calls take from it.
 *
 * @param exchange the HTTP exchange
 * @param client the gateway key's id or the client address
 * @param authorization the {@code Authorization} header, for admin checks
 * @param entryPoint the protocol, as a metric tag: {@code rpc} or {@code trpc}
 * @param startNanos when the HTTP request arrived
 * @param budget the budget left after the calls so far, for {@code X-RateLimit-*}
 * @param spend what the AI calls so far cost and left of the key's budget, for
 * {@code X-Request-Cost} and {@code X-Budget-*}
 */
public record RpcCall(ServerWebExchange exchange, String client, @Nullable String authorization, String entryPoint,
		long startNanos, AtomicReference<@Nullable RateLimitStatus> budget, RequestSpend spend) {

	public static RpcCall of(ServerWebExchange exchange, String entryPoint) {
		return new RpcCall(exchange, ClientIdentity.of(exchange),
				exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION), entryPoint,
				GatewayTimingFilter.start(exchange), new AtomicReference<>(), new RequestSpend());
	}

	/**
	 * Records the budget a call left; of several calls, the smallest remainder is kept.
	 */
	public void budget(@Nullable RateLimitStatus status) {
		if (status != null) {
			this.budget.accumulateAndGet(status,
					(kept, next) -> (kept == null || next.remaining() <= kept.remaining()) ? next : kept);
		}
	}

	/**
	 * Records what a call through the chat pipeline took from the caller's limits and
	 * budget, once it ended.
	 */
	public void ended(ChatExchange exchange) {
		budget(exchange.rateLimit());
		this.spend.add(exchange);
	}

	/**
	 * Sets {@code X-RateLimit-Limit}, {@code -Remaining} and {@code -Reset} when a
	 * rate-limit budget was taken from, and {@code X-Request-Cost} and {@code X-Budget-*}
	 * when a call was priced.
	 */
	public void headers(HttpHeaders headers) {
		this.spend.headers(headers);
		RateLimitStatus status = this.budget.get();
		if (status != null) {
			headers.set("X-RateLimit-Limit", Long.toString(status.limit()));
			headers.set("X-RateLimit-Remaining", Long.toString(status.remaining()));
			headers.set("X-RateLimit-Reset", Long.toString(status.resetSeconds()));
		}
	}

}
