package dev.junction.messaging.apikey;

import java.util.Set;

import dev.junction.messaging.common.Api;
import dev.junction.messaging.web.ApiException;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Authenticates the {@code x-api-key} header (401) and checks the scope the route needs
 * (403): {@code admin} for {@code /api-keys}, {@code read} for reads, {@code write} for
 * changes. Health and info are public.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class ApiKeyAuthenticationFilter implements WebFilter {

	/** Header carrying the API key. */
	public static final String HEADER = "x-api-key";

	private static final Set<String> PUBLIC_PATHS = Set.of(Api.BASE + "/health", Api.BASE + "/info");

	private final ApiKeyService apiKeys;

	public ApiKeyAuthenticationFilter(ApiKeyService apiKeys) {
		this.apiKeys = apiKeys;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String path = request.getPath().pathWithinApplication().value();
		if (!path.startsWith(Api.BASE) || PUBLIC_PATHS.contains(path) || request.getMethod() == HttpMethod.OPTIONS) {
			return chain.filter(exchange);
		}
		String key = request.getHeaders().getFirst(HEADER);
		if (!StringUtils.hasText(key)) {
			return Mono.error(ApiException.unauthorized("Missing " + HEADER + " header"));
		}
		return this.apiKeys.authenticate(key.trim()).flatMap((caller) -> {
			caller.require(requiredScope(request.getMethod(), path));
			exchange.getAttributes().put(Caller.ATTRIBUTE, caller);
			return chain.filter(exchange);
		});
	}

	static Scope requiredScope(HttpMethod method, String path) {
		if (path.startsWith(Api.BASE + "/api-keys")) {
			return Scope.ADMIN;
		}
		return (method == HttpMethod.GET || method == HttpMethod.HEAD) ? Scope.READ : Scope.WRITE;
	}

}
