package dev.junction.messaging.web;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.junction.messaging.common.Api;
import dev.junction.messaging.ratelimit.RouteGroup;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Times every API request ({@value #METER}) by route group, method, status and outcome.
 * Failures are answered here, by the {@link ProblemExceptionHandler}, so that the timer
 * sees the status they get; the live event stream is not timed.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
public class RequestMetricsFilter implements WebFilter {

	/** Timer of API requests. */
	public static final String METER = "junction.messaging.requests";

	private final MeterRegistry registry;

	private final ProblemExceptionHandler problems;

	private final ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();

	public RequestMetricsFilter(MeterRegistry registry, ProblemExceptionHandler problems) {
		this.registry = registry;
		this.problems = problems;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String path = request.getPath().pathWithinApplication().value();
		if (!path.startsWith(Api.BASE) || RequestLimitFilter.isStream(request)) {
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		return chain.filter(exchange)
			.onErrorResume((ex) -> this.problems.handle(exchange, ex))
			.doFinally((signal) -> record(exchange, RouteGroup.of(path), signal, System.nanoTime() - start));
	}

	private void record(ServerWebExchange exchange, RouteGroup group, SignalType signal, long nanos) {
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		int code = (status != null) ? status.value() : 200;
		if (signal == SignalType.CANCEL) {
			code = ProblemExceptionHandler.CLIENT_CLOSED_REQUEST;
		}
		String outcome = (code == ProblemExceptionHandler.CLIENT_CLOSED_REQUEST) ? "cancelled" : outcome(code);
		Key key = new Key(group, method(exchange.getRequest()), code, outcome);
		this.timers.computeIfAbsent(key, this::register).record(nanos, TimeUnit.NANOSECONDS);
	}

	private Timer register(Key key) {
		return Timer.builder(METER)
			.description("API requests, from arrival to the complete response")
			.tag("group", key.group.id())
			.tag("method", key.method)
			.tag("status", Integer.toString(key.status))
			.tag("outcome", key.outcome)
			.register(this.registry);
	}

	private static String method(ServerHttpRequest request) {
		return switch (request.getMethod().name()) {
			case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS" -> request.getMethod().name();
			default -> "other";
		};
	}

	private static String outcome(int status) {
		if (status >= 500) {
			return "server_error";
		}
		if (status >= 400) {
			return "client_error";
		}
		return (status >= 300) ? "redirection" : "success";
	}

	private record Key(RouteGroup group, String method, int status, String outcome) {
	}

}
