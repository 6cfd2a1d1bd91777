package dev.junction.gateway.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.provider.Usage;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * The gateway's meters. Tags have small fixed value sets: a model name becomes a tag
 * value only among the first {@value #MAX_MODELS} seen, later ones count as
 * {@code other}, so a client sending arbitrary model names cannot blow up the series
 * count.
 */
public final class GatewayMetrics {

	/** Timer of requests through the provider pipeline. */
	public static final String REQUESTS = "junction.gateway.requests";

	/** Timer of time spent in the gateway itself, upstream waits excluded. */
	public static final String OVERHEAD = "junction.gateway.overhead";

	/** Timer of time spent waiting for upstreams, per request. */
	public static final String UPSTREAM = "junction.gateway.upstream";

	/** OpenTelemetry GenAI: duration of model calls. */
	public static final String OPERATION_DURATION = "gen_ai.client.operation.duration";

	/** OpenTelemetry GenAI: tokens used, by type. */
	public static final String TOKEN_USAGE = "gen_ai.client.token.usage";

	static final int MAX_MODELS = 100;

	private final MeterRegistry registry;

	private final Set<String> models = ConcurrentHashMap.newKeySet();

	private final ConcurrentHashMap<String, Timer> overhead = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<UpstreamKey, Timer> upstream = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<RequestKey, RequestMeters> requests = new ConcurrentHashMap<>();

	public GatewayMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/** Records one finished pipeline call. */
	public void request(Outcome outcome, String entryPoint, String provider, String providerType, String model,
			long nanos, @Nullable Usage usage, @Nullable String errorType) {
		RequestMeters meters = this.requests.computeIfAbsent(
				new RequestKey(outcome, entryPoint, provider, providerType, modelTag(model), errorType),
				this::register);
		meters.requests.record(nanos, TimeUnit.NANOSECONDS);
		if (meters.duration != null) {
			meters.duration.record(nanos, TimeUnit.NANOSECONDS);
		}
		if (meters.input != null && usage != null && usage != Usage.NONE) {
			meters.input.record(usage.promptTokens());
			meters.output.record(usage.completionTokens());
		}
	}

	private RequestMeters register(RequestKey key) {
		Timer requests = Timer.builder(REQUESTS)
			.description("Requests through the provider pipeline, from arrival to the last byte from the provider")
			.tags(Tags.of("provider", key.provider, "model", key.model, "outcome", key.outcome.tag, "status",
					Integer.toString(key.outcome.status), "entry", key.entryPoint))
			.register(this.registry);
		if ("none".equals(key.provider) || "cache".equals(key.provider)) {
			return new RequestMeters(requests, null, null, null);
		}
		Tags genAi = Tags.of("gen_ai.operation.name", "chat", "gen_ai.provider.name", key.providerType,
				"gen_ai.request.model", key.model);
		Timer duration = Timer.builder(OPERATION_DURATION)
			.description("GenAI operation duration")
			.tags(genAi)
			.tag("error.type", (key.errorType != null) ? key.errorType : "none")
			.register(this.registry);
		return new RequestMeters(requests, duration, tokens(genAi, "input"), tokens(genAi, "output"));
	}

	/** Records the gateway's own time for one HTTP exchange. */
	public void overhead(String entryPoint, long nanos) {
		this.overhead
			.computeIfAbsent(entryPoint,
					(entry) -> Timer.builder(OVERHEAD)
						.description("Time spent in the gateway itself, upstream waits excluded")
						.tag("entry", entry)
						.register(this.registry))
			.record(nanos, TimeUnit.NANOSECONDS);
	}

	/**
	 * Records the time one HTTP exchange spent waiting for {@code provider}, every
	 * attempt included.
	 */
	public void upstream(String entryPoint, String provider, long nanos) {
		this.upstream
			.computeIfAbsent(new UpstreamKey(entryPoint, provider),
					(key) -> Timer.builder(UPSTREAM)
						.description("Time spent waiting for the upstream provider, per request")
						.tag("entry", key.entryPoint)
						.tag("provider", key.provider)
						.register(this.registry))
			.record(nanos, TimeUnit.NANOSECONDS);
	}

	private DistributionSummary tokens(Tags genAi, String type) {
		return DistributionSummary.builder(TOKEN_USAGE)
			.description("Number of input and output tokens used")
			.baseUnit("tokens")
			.tags(genAi)
			.tag("gen_ai.token.type", type)
			.register(this.registry);
	}

	private String modelTag(String model) {
		if (this.models.contains(model)) {
			return model;
		}
		if (this.models.size() < MAX_MODELS) {
			this.models.add(model);
			return model;
		}
		return "other";
	}

	private record RequestKey(Outcome outcome, String entryPoint, String provider, String providerType, String model,
			@Nullable String errorType) {
	}

	private record UpstreamKey(String entryPoint, String provider) {
	}

	private record RequestMeters(Timer requests, @Nullable Timer duration, @Nullable DistributionSummary input,
			@Nullable DistributionSummary output) {
	}

	/** How a request ended, with the HTTP status it was answered with. */
	public record Outcome(String tag, int status) {

		public static final Outcome SUCCESS = new Outcome("success", 200);

		public static final Outcome CANCELLED = new Outcome("cancelled", 499);

	}

}
