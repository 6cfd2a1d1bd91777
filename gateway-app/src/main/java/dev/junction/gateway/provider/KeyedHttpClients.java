package dev.junction.gateway.provider;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.client.HttpClient;

/**
 * An HTTP provider adapter's client for each upstream key: the same pooled client with
 * the key's authentication header (and a JSON content type), configured once per key
 * rather than per request. A caller's own key is never kept: its client is made for its
 * call.
 */
public final class KeyedHttpClients {

	private final HttpClient client;

	private final BiConsumer<HttpHeaders, String> authentication;

	private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

	/**
	 * @param client the pooled client every key's client shares
	 * @param authentication sets a key's header
	 */
	public KeyedHttpClients(HttpClient client, BiConsumer<HttpHeaders, String> authentication) {
		this.client = client;
		this.authentication = authentication;
	}

	/** The client for a request's key, or for no key. */
	public HttpClient forRequest(ProviderRequest request) {
		return request.callerKey() ? withKey(request.apiKey()) : forKey(request.apiKey());
	}

	/** The client for one of the provider's own keys, or for no key. */
	public HttpClient forKey(@Nullable String apiKey) {
		return this.clients.computeIfAbsent((apiKey != null) ? apiKey : "", this::withKey);
	}

	private HttpClient withKey(@Nullable String key) {
		return this.client.headers((headers) -> {
			headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
			if (key != null && !key.isEmpty()) {
				this.authentication.accept(headers, key);
			}
		});
	}

}
