package dev.junction.gateway.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.routing.Route;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which requests the response cache may answer, and whose entries they see. Entries
 * belong to one gateway key (requests without a key share one anonymous owner) and, when
 * a request names a {@code user}, to that user alone, unless the operator configures one
 * shared namespace. A sampled request (temperature above 0, or no temperature on a
 * provider whose default samples, and no {@code seed}) is never cached unless the request
 * or its alias asks for it. A request with the caller's own provider key sees only
 * entries made with that key, even in a shared namespace. A Responses request that may be
 * passed through to a provider serving the Responses API natively is never cached.
 */
public final class CachePolicy {

	private final @Nullable String sharedNamespace;

	private final Set<String> sampledAliases;

	private final ProviderRegistry providers;

	/**
	 * @param sharedNamespace one namespace for every key and user, or null for one per
	 * key and user
	 * @param sampledAliases the aliases whose sampled requests may be cached too
	 * @param providers the providers, whose types say whether they sample by default
	 */
	public CachePolicy(@Nullable String sharedNamespace, Set<String> sampledAliases, ProviderRegistry providers) {
		this.sharedNamespace = (sharedNamespace != null && !sharedNamespace.isBlank()) ? sharedNamespace : null;
		this.sampledAliases = Set.copyOf(sampledAliases);
		this.providers = providers;
	}

	/** Whether the exchange's answer may be served from the cache and stored in it. */
	public boolean cacheable(ChatExchange exchange) {
		Route route = exchange.route();
		if (route != null && passedThroughResponses(exchange, route)) {
			return false;
		}
		if (route == null || !sampled(exchange.request().body(), route)) {
			return true;
		}
		return exchange.cacheSampled() || this.sampledAliases.contains(route.requested());
	}

	/**
	 * The namespace of the exchange's entries: the shared one, or its gateway key and
	 * user.
	 */
	public ObjectNode scope(ChatExchange exchange, ObjectNode scope) {
		String callerKey = exchange.callerKey();
		if (callerKey != null) {
			scope.put("callerKey", sha256(callerKey));
		}
		if (this.sharedNamespace != null) {
			return scope.put("shared", this.sharedNamespace);
		}
		String client = exchange.client();
		scope.put("owner", ClientIdentity.isGatewayKey(client) ? client : "anonymous");
		JsonNode user = exchange.request().body().get("user");
		if (user != null && user.isString() && !user.stringValue().isEmpty()) {
			scope.put("user", user.stringValue());
		}
		return scope;
	}

	private static String sha256(String text) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Whether a Responses request may reach a provider that serves it natively: its
	 * answer carries the upstream's own response id, which may be stored and continued
	 * upstream, so a repeat would hand out one id twice.
	 */
	private boolean passedThroughResponses(ChatExchange exchange, Route route) {
		return exchange.request().api() == ClientApi.RESPONSES && route.targets()
			.stream()
			.anyMatch((target) -> this.providers.get(target.provider()).provider().speaks(ClientApi.RESPONSES));
	}

	private boolean sampled(ObjectNode body, Route route) {
		JsonNode seed = body.get("seed");
		if (seed != null && !seed.isNull()) {
			return false;
		}
		JsonNode temperature = body.get("temperature");
		if (temperature == null || temperature.isNull()) {
			return route.targets()
				.stream()
				.anyMatch((target) -> this.providers.get(target.provider()).provider().type().samplesByDefault());
		}
		return !temperature.isNumber() || temperature.doubleValue() > 0;
	}

}
