package dev.junction.gateway.rpc;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.auth.KeyActivity;
import dev.junction.gateway.config.GatewayProperties;
import dev.junction.gateway.vkey.Budget;
import dev.junction.gateway.vkey.KeyService;
import dev.junction.gateway.vkey.KeyStore;
import dev.junction.gateway.vkey.Money;
import dev.junction.gateway.vkey.Secrets;
import dev.junction.gateway.vkey.VirtualKey;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code admin.getUserInfo}: who a user is to the gateway, from its keys. A user is a
 * virtual key's owner (all the keys they own), one virtual key ({@code vk_...}), or a
 * configured gateway key by its client id ({@code key:...}, as logs name it). The answer
 * shows ids, names, limits, budgets and recorded usage, never a secret or its hash. A
 * configured key's usage and last access are this instance's, counted in memory since it
 * started.
 */
final class UserInfoProcedure {

	/** Days of usage the answer sums, as the reference backend's. */
	static final int USAGE_DAYS = 30;

	private final @Nullable KeyService keys;

	private final GatewayKeys gatewayKeys;

	private final GatewayProperties gateway;

	private final Instant started = Instant.now();

	UserInfoProcedure(@Nullable KeyService keys, GatewayKeys gatewayKeys, GatewayProperties gateway) {
		this.keys = keys;
		this.gatewayKeys = gatewayKeys;
		this.gateway = gateway;
	}

	Procedure procedure() {
		return new Procedure("admin.getUserInfo",
				"A user's keys, limits, budgets, permissions and usage: a virtual key's owner, a virtual key id "
						+ "or a configured key's client id; needs an admin key.",
				Procedure.Type.QUERY, true, false,
				List.of(Param.required("userId", "string",
						"A virtual key's owner, a virtual key id (vk_...) or a configured key's client id (key:...)"),
						Param.optional("includePermissions", "boolean", "Include what the user may do (default false)"),
						Param.optional("includeUsage", "boolean",
								"Include the usage of the last " + USAGE_DAYS + " days (default false)")),
				Schemas.object("userId", "string", "type", "string", "lastAccess", "string", "keys", "array"),
				(arguments, call) -> info(arguments.string("userId"), arguments.bool("includePermissions", false),
						arguments.bool("includeUsage", false)));
	}

	private Mono<JsonNode> info(String userId, boolean permissions, boolean usage) {
		if (userId.startsWith(Secrets.PREFIX) || userId.isBlank()) {
			return Mono
				.error(Arguments.invalid("'userId' must name a user or a key id, never a key's secret", "userId"));
		}
		String id = userId.startsWith(ClientIdentity.ofKey("")) ? userId : ClientIdentity.ofKey(userId);
		Boolean admin = this.gatewayKeys.configured(id);
		if (admin != null) {
			return Mono.just(configured(userId, admin, permissions, usage));
		}
		KeyService keys = this.keys;
		if (keys == null) {
			return Mono.error(notFound());
		}
		String keyId = KeyService.idOf(id);
		Flux<VirtualKey> found = (keyId != null) ? keys.store().find(keyId).flux() : keys.store().ownedBy(userId);
		return found.concatMap((key) -> facts(keys, key)).collectList().flatMap((facts) -> {
			if (facts.isEmpty()) {
				return Mono.error(notFound());
			}
			return Mono.just(virtual(userId, facts, keys.now(), permissions, usage));
		});
	}

	private static RpcException notFound() {
		ObjectNode data = JsonNodeFactory.instance.objectNode().put("param", "userId");
		return new RpcException(new RpcError(RpcError.INVALID_PARAMS, 404,
				"No virtual key, key owner or configured key matches 'userId'.", data, null));
	}

	/**
	 * A key with its spend rows (all time) and its budget's state in the current period.
	 */
	private static Mono<KeyFacts> facts(KeyService keys, VirtualKey key) {
		Budget budget = key.budget();
		Mono<long[]> state = (budget != null) ? keys.budgets().state(key.id(), budget.period().start(keys.now()))
				: Mono.just(new long[] { 0, 0 });
		return keys.spend()
			.spend(key.id(), LocalDate.EPOCH, LocalDate.now(ZoneOffset.UTC))
			.collectList()
			.zipWith(state, (spend, spentReserved) -> new KeyFacts(key, spend, spentReserved));
	}

	private JsonNode configured(String userId, boolean admin, boolean permissions, boolean usage) {
		ObjectNode info = head(userId, admin ? "admin" : "user");
		if (permissions) {
			ArrayNode list = info.putArray("permissions").add("ai:generate").add("models:*");
			if (admin) {
				list.add("admin");
			}
		}
		String id = userId.startsWith(ClientIdentity.ofKey("")) ? userId : ClientIdentity.ofKey(userId);
		// Configured keys keep no spend rows: their activity is counted in memory since
		// start.
		KeyActivity activity = this.gatewayKeys.activity(id);
		Instant last = (activity != null) ? activity.lastAccess() : null;
		info.put("lastAccess", (last != null) ? last.toString() : null);
		if (usage) {
			long requests = (activity != null) ? activity.requests() : 0;
			long tokens = (activity != null) ? activity.tokens() : 0;
			info.putObject("usage")
				.put("totalRequests", requests)
				.put("totalTokens", tokens)
				.put("averageTokensPerRequest", (requests == 0) ? 0 : (double) tokens / requests)
				.put("since", this.started.toString())
				.put("scope", "this gateway instance since it started");
		}
		ArrayNode list = info.putArray("keys");
		ObjectNode key = list.addObject()
			.put("id", id)
			.put("kind", admin ? "configured-admin" : "configured")
			.put("status", "active");
		key.putArray("models");
		key.putNull("rateLimit");
		key.putNull("budget");
		limits(info);
		return info;
	}

	private JsonNode virtual(String userId, List<KeyFacts> facts, Instant now, boolean permissions, boolean usage) {
		ObjectNode info = head(userId, "user");
		LocalDate since = LocalDate.now(ZoneOffset.UTC).minusDays(USAGE_DAYS - 1);
		LocalDate last = null;
		Set<String> models = new LinkedHashSet<>();
		boolean anyActive = false;
		boolean unrestricted = false;
		Usage total = new Usage();
		Map<String, Usage> byProvider = new LinkedHashMap<>();
		ArrayNode list = JsonNodeFactory.instance.arrayNode();
		for (KeyFacts fact : facts) {
			VirtualKey key = fact.key();
			boolean active = key.activeAt(now);
			if (active) {
				anyActive = true;
				unrestricted |= key.models().isEmpty();
				models.addAll(key.models());
			}
			for (KeyStore.SpendRow row : fact.spend()) {
				if (row.requests() > 0 && (last == null || row.day().isAfter(last))) {
					last = row.day();
				}
				if (!row.day().isBefore(since)) {
					total.add(row);
					int slash = row.model().indexOf('/');
					String provider = (slash > 0) ? row.model().substring(0, slash) : row.model();
					byProvider.computeIfAbsent(provider, (name) -> new Usage()).add(row);
				}
			}
			list.add(json(fact, now));
		}
		if (permissions) {
			ArrayNode granted = info.putArray("permissions");
			if (anyActive) {
				granted.add("ai:generate");
				if (unrestricted) {
					granted.add("models:*");
				}
				else {
					models.forEach((model) -> granted.add("models:" + model));
				}
			}
		}
		info.put("lastAccess", (last != null) ? last.toString() : null);
		if (usage) {
			ObjectNode summary = info.putObject("usage");
			total.writeTo(summary, "totalRequests", "totalTokens", "estimatedTotalCostUsd");
			summary.put("averageTokensPerRequest", (total.requests == 0) ? 0 : (double) total.tokens / total.requests);
			summary.put("days", USAGE_DAYS);
			ArrayNode breakdown = summary.putArray("providerBreakdown");
			byProvider.forEach((provider, sums) -> sums.writeTo(breakdown.addObject().put("provider", provider),
					"requests", "tokens", "estimatedCostUsd"));
		}
		info.set("keys", list);
		limits(info);
		return info;
	}

	private static ObjectNode head(String userId, String type) {
		return JsonNodeFactory.instance.objectNode().put("userId", userId).put("type", type);
	}

	/**
	 * The limits every key is under besides its own: the gateway's rate limit, when it
	 * has one.
	 */
	private void limits(ObjectNode info) {
		GatewayProperties.RateLimit limits = this.gateway.rateLimit();
		if (limits.enabled()) {
			info.putObject("gatewayRateLimit")
				.put("requests", limits.requests())
				.put("tokens", limits.tokens())
				.put("window", limits.window().toString());
		}
		else {
			info.putNull("gatewayRateLimit");
		}
	}

	private static ObjectNode json(KeyFacts fact, Instant now) {
		VirtualKey key = fact.key();
		ObjectNode json = JsonNodeFactory.instance.objectNode()
			.put("id", key.id())
			.put("kind", "virtual")
			.put("name", key.name())
			.put("owner", key.owner())
			.put("status", (key.revokedAt() != null) ? "revoked" : key.activeAt(now) ? "active" : "expired");
		key.models().forEach(json.putArray("models")::add);
		if (key.requestsPerMinute() != null || key.tokensPerMinute() != null) {
			json.putObject("rateLimit")
				.put("requestsPerMinute", key.requestsPerMinute())
				.put("tokensPerMinute", key.tokensPerMinute());
		}
		else {
			json.putNull("rateLimit");
		}
		Budget budget = key.budget();
		if (budget != null) {
			long spent = fact.spentReserved()[0];
			long reserved = fact.spentReserved()[1];
			json.putObject("budget")
				.put("usd", Money.decimal(budget.nanos()))
				.put("period", budget.period().id())
				.put("spentUsd", Money.decimal(spent))
				.put("reservedUsd", Money.decimal(reserved))
				.put("remainingUsd", Money.decimal(Math.max(0, budget.nanos() - spent - reserved)));
		}
		else {
			json.putNull("budget");
		}
		json.put("createdAt", key.createdAt().toString());
		json.put("expiresAt", (key.expiresAt() != null) ? key.expiresAt().toString() : null);
		json.put("revokedAt", (key.revokedAt() != null) ? key.revokedAt().toString() : null);
		return json;
	}

	private record KeyFacts(VirtualKey key, List<KeyStore.SpendRow> spend, long[] spentReserved) {
	}

	/** Requests, tokens and cost summed over spend rows. */
	private static final class Usage {

		private long requests;

		private long tokens;

		private long nanos;

		void add(KeyStore.SpendRow row) {
			this.requests += row.requests();
			this.tokens += row.promptTokens() + row.completionTokens();
			this.nanos += row.costNanos();
		}

		void writeTo(ObjectNode node, String requestsName, String tokensName, String costName) {
			node.put(requestsName, this.requests).put(tokensName, this.tokens).put(costName, Money.usd(this.nanos));
		}

	}

}
