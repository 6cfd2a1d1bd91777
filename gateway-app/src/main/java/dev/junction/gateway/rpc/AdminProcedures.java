package dev.junction.gateway.rpc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.cache.ResponseStore;
import dev.junction.gateway.config.GatewayProperties;
import dev.junction.gateway.metrics.GatewayMetrics;
import dev.junction.gateway.provider.ProviderRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code admin.statistics}, {@code admin.getConfig} and {@code admin.clearCache}, the
 * reference backend's admin procedures, answered from the gateway's own state. Every one
 * needs an admin key; none ever shows a secret.
 */
public final class AdminProcedures {

	private static final List<String> CONFIG_SECTIONS = List.of("all", "server", "auth", "ai", "billing");

	private static final List<String> CACHE_TARGETS = List.of("all", "memory", "responses", "tokens", "usage");

	private final MeterRegistry registry;

	private final GatewayProperties gateway;

	private final RpcProperties rpc;

	private final ProviderRegistry providers;

	private final ResponseStore responses;

	private final boolean sharedThroughRedis;

	private final long startNanos = System.nanoTime();

	public AdminProcedures(MeterRegistry registry, GatewayProperties gateway, RpcProperties rpc,
			ProviderRegistry providers, ResponseStore responses, boolean sharedThroughRedis) {
		this.registry = registry;
		this.gateway = gateway;
		this.rpc = rpc;
		this.providers = providers;
		this.responses = responses;
		this.sharedThroughRedis = sharedThroughRedis;
	}

	public List<Procedure> procedures() {
		return List.of(new Procedure("admin.statistics",
				"Requests through the provider pipeline since this instance started: count, mean latency "
						+ "and error rate, per entry point; needs an admin key.",
				Procedure.Type.QUERY, true, false,
				List.of(Param
					.optional("days", "integer",
							"Days the period reports (default 30); the figures cover at most this instance's uptime")
					.between(1, 365)),
				Schemas.object("period", "object", "system", "object", "entries", "object"),
				(arguments, call) -> Mono.just(statistics(arguments.has("days") ? arguments.integer("days") : 30))),
				new Procedure("admin.getConfig",
						"The gateway's configuration by section, secrets left out; needs an admin key.",
						Procedure.Type.QUERY, true, false,
						List.of(Param.optional("section", "string", "all (default), server, auth, ai or billing")
							.oneOf(CONFIG_SECTIONS.toArray(String[]::new))),
						Schemas.object("config", "object", "retrievedAt", "string"),
						(arguments, call) -> Mono.just(config(arguments.string("section", "all")))),
				new Procedure("admin.clearCache",
						"Empties the response cache (every key's entries, on every instance sharing its Redis); "
								+ "needs an admin key.",
						Procedure.Type.MUTATION, true, false,
						List.of(Param
							.optional("target", "string",
									"all (default), memory or responses: the response cache; tokens and usage: nothing "
											+ "is cached for them")
							.oneOf(CACHE_TARGETS.toArray(String[]::new))),
						Schemas.object("success", "boolean", "cleared", "array", "entriesRemoved", "integer",
								"timestamp", "string"),
						(arguments, call) -> clearCache(arguments.string("target", "all"))));
	}

	private JsonNode statistics(long days) {
		Instant now = Instant.now();
		double uptime = (System.nanoTime() - this.startNanos) / 1e9;
		ObjectNode result = JsonNodeFactory.instance.objectNode();
		ObjectNode period = result.putObject("period");
		period.put("days", days);
		Instant requested = now.minus(Duration.ofDays(days));
		Instant started = now.minusMillis(Math.round(uptime * 1000));
		period.put("startDate", requested.toString());
		period.put("endDate", now.toString());
		period.put("coveredSince", (started.isAfter(requested) ? started : requested).toString());
		Totals all = new Totals();
		ObjectNode entries = JsonNodeFactory.instance.objectNode();
		for (Timer timer : this.registry.find(GatewayMetrics.REQUESTS).timers()) {
			String entry = String.valueOf(timer.getId().getTag("entry"));
			String outcome = timer.getId().getTag("outcome");
			boolean failed = !"success".equals(outcome) && !"cancelled".equals(outcome);
			all.add(timer, failed);
			Totals perEntry = new Totals();
			perEntry.add(timer, failed);
			ObjectNode node = entries.has(entry) ? (ObjectNode) entries.get(entry) : entries.putObject(entry);
			perEntry.mergeInto(node);
		}
		ObjectNode system = result.putObject("system");
		all.writeTo(system);
		system.put("uptime", uptime);
		entries.properties().forEach((entry) -> Totals.finish((ObjectNode) entry.getValue()));
		result.set("entries", entries);
		return result;
	}

	private JsonNode config(String section) {
		ObjectNode config = JsonNodeFactory.instance.objectNode();
		boolean all = "all".equals(section);
		if (all || "server".equals(section)) {
			config.putObject("server")
				.put("version", SystemProcedures.VERSION)
				.put("maxBodySize", this.gateway.http().maxBodySize().toBytes())
				.put("trpcTransformer", this.rpc.trpcTransformer());
		}
		if (all || "auth".equals(section)) {
			GatewayProperties.Auth auth = this.gateway.auth();
			config.putObject("auth")
				.put("requireAuth", auth.keys() != null && !auth.keys().isEmpty())
				.put("gatewayKeys", (auth.keys() != null) ? auth.keys().size() : 0)
				.put("adminKeys", (auth.adminKeys() != null) ? auth.adminKeys().size() : 0);
		}
		if (all || "ai".equals(section)) {
			ObjectNode ai = config.putObject("ai");
			ObjectNode providers = ai.putObject("providers");
			this.providers.all()
				.forEach((entry) -> providers.putObject(entry.provider().name())
					.put("type", entry.provider().type().name().toLowerCase(Locale.ROOT))
					.put("keys", entry.keys().states().size()));
			ai.put("defaultModel", this.rpc.defaultModel());
			this.gateway.models().keySet().forEach(ai.putArray("aliases")::add);
		}
		if (all || "billing".equals(section)) {
			GatewayProperties.RateLimit limits = this.gateway.rateLimit();
			config.putObject("billing")
				.put("rateLimited", limits.enabled())
				.put("requestsPerWindow", limits.requests())
				.put("tokensPerWindow", limits.tokens())
				.put("window", limits.window().toString())
				.put("sharedThroughRedis", this.sharedThroughRedis);
			((ObjectNode) config.get("billing")).putObject("cache")
				.put("enabled", this.gateway.cache().enabled())
				.put("ttl", this.gateway.cache().ttl().toString());
		}
		ObjectNode result = JsonNodeFactory.instance.objectNode();
		result.set("config", config);
		result.put("retrievedAt", Instant.now().toString());
		return result;
	}

	private Mono<JsonNode> clearCache(String target) {
		boolean responsesToo = List.of("all", "memory", "responses").contains(target);
		Mono<Long> cleared = responsesToo ? this.responses.clear() : Mono.just(0L);
		return cleared.map((removed) -> {
			ObjectNode result = JsonNodeFactory.instance.objectNode();
			result.put("success", true);
			if (responsesToo) {
				result.putArray("cleared").add("responses");
			}
			else {
				result.putArray("cleared");
			}
			result.put("entriesRemoved", removed);
			result.put("timestamp", Instant.now().toString());
			return (JsonNode) result;
		})
			.onErrorMap((error) -> !(error instanceof RpcException),
					(error) -> new RpcException(new RpcError(RpcError.SERVER_ERROR, 503,
							"The response cache's store is unreachable; nothing was cleared.", null,
							Duration.ofSeconds(1))));
	}

	/** Counts, time and failures of some request timers. */
	private static final class Totals {

		private long requests;

		private double seconds;

		private long failed;

		void add(Timer timer, boolean failed) {
			this.requests += timer.count();
			this.seconds += timer.totalTime(TimeUnit.SECONDS);
			if (failed) {
				this.failed += timer.count();
			}
		}

		void writeTo(ObjectNode node) {
			node.put("totalRequests", this.requests);
			node.put("averageResponseTime", (this.requests == 0) ? 0 : 1000 * this.seconds / this.requests);
			node.put("errorRate", (this.requests == 0) ? 0 : (double) this.failed / this.requests);
		}

		void mergeInto(ObjectNode node) {
			node.put("totalRequests", node.path("totalRequests").asLong(0) + this.requests);
			node.put("seconds", node.path("seconds").asDouble(0) + this.seconds);
			node.put("failed", node.path("failed").asLong(0) + this.failed);
		}

		static void finish(ObjectNode node) {
			long requests = node.path("totalRequests").asLong(0);
			double seconds = node.remove("seconds").asDouble(0);
			long failed = node.remove("failed").asLong(0);
			node.put("averageResponseTime", (requests == 0) ? 0 : 1000 * seconds / requests);
			node.put("errorRate", (requests == 0) ? 0 : (double) failed / requests);
		}

	}

}
