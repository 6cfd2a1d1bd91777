package dev.junction.gateway.chat;

import java.math.BigDecimal;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatExchange.BudgetStatus;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * What a request cost and what is left of its key's budget, as response headers; a
 * stream, whose cost is known only at its end, also sends them as HTTP trailers.
 */
public final class CostHeaders {

	/** What the request cost, in US dollars. */
	public static final String COST = "X-Request-Cost";

	/** The key's budget per period, in US dollars. */
	public static final String LIMIT = "X-Budget-Limit";

	/** What is left of the key's budget in the period, in US dollars. */
	public static final String REMAINING = "X-Budget-Remaining";

	/** Seconds until the budget's period ends. */
	public static final String RESET = "X-Budget-Reset";

	private CostHeaders() {
	}

	/**
	 * Sets the request's cost once known and the budget left, the reservation counted as
	 * spent until then.
	 */
	public static void set(HttpHeaders headers, ChatExchange exchange) {
		long cost = exchange.costNanos();
		if (cost >= 0) {
			cost(headers, cost);
		}
		BudgetStatus budget = exchange.budget();
		if (budget != null) {
			budget(headers, budget.limitNanos(), remaining(budget, cost), budget.resetSeconds());
		}
	}

	public static void cost(HttpHeaders headers, long costNanos) {
		headers.set(COST, usd(costNanos));
	}

	/**
	 * Sets the budget headers; a negative {@code resetSeconds} (a budget that never
	 * resets) sends no reset.
	 */
	public static void budget(HttpHeaders headers, long limitNanos, long remainingNanos, long resetSeconds) {
		headers.set(LIMIT, usd(limitNanos));
		headers.set(REMAINING, usd(Math.max(0, remainingNanos)));
		if (resetSeconds >= 0) {
			headers.set(RESET, Long.toString(resetSeconds));
		}
	}

	/**
	 * What is left after a request that cost {@code costNanos}, or that reserved what it
	 * did while its cost is unknown (-1).
	 */
	public static long remaining(BudgetStatus budget, long costNanos) {
		return budget.limitNanos() - budget.usedNanos() + ((costNanos >= 0) ? budget.reservedNanos() - costNanos : 0);
	}

	/**
	 * For an event stream answered by Reactor Netty: announces {@code Trailer} and, when
	 * the stream ends, sends its cost and the budget then left as trailer fields of the
	 * chunked answer. A stream that ended without usage sends none.
	 */
	public static void trailers(ServerHttpResponse response, ChatExchange exchange) {
		if (!MediaType.TEXT_EVENT_STREAM.isCompatibleWith(response.getHeaders().getContentType())) {
			return;
		}
		Object nativeResponse = ServerHttpResponseDecorator.getNativeResponse(response);
		if (!(nativeResponse instanceof HttpServerResponse server)) {
			return;
		}
		BudgetStatus budget = exchange.budget();
		response.getHeaders().set(HttpHeaders.TRAILER, (budget != null) ? COST + ", " + REMAINING : COST);
		server.trailerHeaders((trailers) -> {
			long cost = exchange.costNanos();
			if (cost >= 0) {
				trailers.set(COST, usd(cost));
				if (budget != null) {
					trailers.set(REMAINING, usd(Math.max(0, remaining(budget, cost))));
				}
			}
		});
	}

	/** Nano-dollars as US dollars, without exponent. */
	public static String usd(long nanos) {
		return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
	}

}
