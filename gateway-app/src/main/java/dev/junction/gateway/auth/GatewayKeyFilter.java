package dev.junction.gateway.auth;

import java.util.List;

import dev.junction.gateway.error.InvalidRequestException;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Requires a gateway key on the provider APIs when keys are configured, as
 * {@code Authorization: Bearer} or Anthropic's {@code x-api-key}, and records who is calling. Health and Actuator endpoints stay open.
 */
public final class GatewayKeyFilter implements WebFilter {

	/** Anthropic's header for the API key, taken where {@code Authorization} is absent. */
	static final String API_KEY = "x-api-key";

	private static final List<String> PROTECTED = List.of("/v1/", "/ai/", "/rpc", "/trpc");

	private final GatewayKeys keys;

	public GatewayKeyFilter(GatewayKeys keys) {
		this.keys = keys;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!this.keys.enabled() || !isProtected(exchange.getRequest().getPath().value())) {
			return chain.filter(exchange);
		}
		HttpHeaders headers = exchange.getRequest().getHeaders();
		String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
		String apiKey = headers.getFirst(API_KEY);
		if (authorization == null && apiKey != null) {
			authorization = "Bearer " + apiKey;
		}
		String id = this.keys.authenticate(authorization);
		if (id == null) {
			return Mono.error(InvalidRequestException.unauthorized());
		}
		exchange.getAttributes().put(ClientIdentity.ATTRIBUTE, id);
		return chain.filter(exchange);
	}

	private static boolean isProtected(String path) {
		for (String prefix : PROTECTED) {
			if (path.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
