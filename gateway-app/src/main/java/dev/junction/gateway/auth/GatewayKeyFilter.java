package dev.junction.gateway.auth;

import java.util.List;

import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Requires a gateway key on the provider APIs when keys are configured, as
 * {@code Authorization: Bearer} or Anthropic's {@code x-api-key}, and records who is
 * calling. Health and Actuator endpoints stay open.
 */
public final class GatewayKeyFilter implements WebFilter {

	/**
	 * Anthropic's header for the API key, taken where {@code Authorization} is absent.
	 */
	static final String API_KEY = "x-api-key";

	private static final List<String> PROTECTED = List.of("/v1/", "/ai/", "/rpc", "/trpc");

	private final GatewayKeys keys;

	private final @Nullable KeyLookup issued;

	public GatewayKeyFilter(GatewayKeys keys) {
		this(keys, null);
	}

	/** With keys issued at run time besides the configured ones. */
	public GatewayKeyFilter(GatewayKeys keys, @Nullable KeyLookup issued) {
		this.keys = keys;
		this.issued = issued;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!(this.keys.enabled() || this.issued != null) || !isProtected(exchange.getRequest().getPath().value())) {
			return chain.filter(exchange);
		}
		HttpHeaders headers = exchange.getRequest().getHeaders();
		String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
		String apiKey = headers.getFirst(API_KEY);
		if (authorization == null && apiKey != null) {
			authorization = "Bearer " + apiKey;
		}
		String id = this.keys.authenticate(authorization);
		if (id != null) {
			exchange.getAttributes().put(ClientIdentity.ATTRIBUTE, id);
			return chain.filter(exchange);
		}
		String key = GatewayKeys.bearer(authorization);
		KeyLookup issued = this.issued;
		if (issued == null || key == null || !issued.claims(key)) {
			return Mono.error(InvalidRequestException.unauthorized());
		}
		return issued.authenticate(key)
			.switchIfEmpty(Mono.error(InvalidRequestException::unauthorized))
			.flatMap((identity) -> {
				exchange.getAttributes().put(ClientIdentity.ATTRIBUTE, identity);
				return chain.filter(exchange);
			});
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
