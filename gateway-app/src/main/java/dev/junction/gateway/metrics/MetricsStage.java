package dev.junction.gateway.metrics;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.auth.KeyActivity;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import dev.junction.gateway.tracing.RequestTracing;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.SignalType;

/**
 * The outermost stage: times every call and counts its tokens, whatever its outcome, and
 * each configured gateway key's calls and tokens ({@link KeyActivity}). A stream whose
 * upstream marked its answer failed ({@link ChatChunk#failed()}) counts as an upstream
 * error, though the client got every event.
 */
public final class MetricsStage implements ChatStage {

	private static final Set<String> ERROR_TYPES = Set.of("invalid_request_error", "authentication_error",
			"permission_error", "not_found_error", "rate_limit_error", "request_too_large", "server_error",
			"server_overloaded", "overloaded_error", "api_error", "timeout_error", "upstream_error", "internal_error");

	/**
	 * An answer the upstream ended as failed inside a stream that itself ended normally.
	 */
	private static final GatewayMetrics.Outcome FAILED_ANSWER = new GatewayMetrics.Outcome("upstream_error", 500);

	private final GatewayMetrics metrics;

	private final ProviderRegistry providers;

	private final GatewayKeys keys;

	/**
	 * @param keys the configured gateway keys, whose calls and tokens are counted per key
	 */
	public MetricsStage(GatewayMetrics metrics, ProviderRegistry providers, GatewayKeys keys) {
		this.metrics = metrics;
		this.providers = providers;
		this.keys = keys;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return Flux.deferContextual((context) -> {
			AtomicReference<Usage> usage = new AtomicReference<>();
			AtomicBoolean failed = new AtomicBoolean();
			Observation observation = RequestTracing.observation(context);
			Flux<T> outputs = next.apply(exchange, attempt).doOnNext((output) -> {
				if (output.usage() != null) {
					usage.set(output.usage());
				}
				if (output instanceof ChatChunk chunk && chunk.failed()) {
					failed.set(true);
				}
				if (observation != null && output instanceof ChatResult) {
					// A whole answer can be written, and the request's span ended, before
					// this flux completes: the answer is written on this thread when the
					// upstream's connection shares the client's event loop.
					tag(observation, exchange, usage.get(), null);
				}
			});
			if (observation != null) {
				// Before the response completes, while the request's span is still open
				// (a
				// whole answer is tagged as it passes, above).
				if (next.mode().streaming()) {
					outputs = outputs.doOnComplete(
							() -> tag(observation, exchange, usage.get(), failed.get() ? FAILED_ANSWER.tag() : null));
				}
				outputs = outputs.doOnError((error) -> tag(observation, exchange, usage.get(), errorType(error)));
			}
			return outputs.doFinally((signal) -> {
				if (signal == SignalType.ON_COMPLETE && failed.get()) {
					record(exchange, FAILED_ANSWER, usage.get(), FAILED_ANSWER.tag());
				}
				else if (signal == SignalType.ON_COMPLETE) {
					record(exchange, GatewayMetrics.Outcome.SUCCESS, usage.get(), null);
				}
				else if (signal == SignalType.CANCEL) {
					record(exchange, GatewayMetrics.Outcome.CANCELLED, usage.get(), null);
				}
			}).doOnError((error) -> record(exchange, outcome(error), usage.get(), errorType(error)));
		});
	}

	private void record(ChatExchange exchange, GatewayMetrics.Outcome outcome, @Nullable Usage usage,
			@Nullable String errorType) {
		Target target = exchange.target();
		String provider = (target != null) ? target.provider() : "none";
		String type = (target != null) ? providerType(target) : "none";
		String model = (target != null) ? target.model() : "none";
		boolean cached = exchange.servedFromCache();
		this.metrics.request(outcome, exchange.entryPoint(), cached ? "cache" : provider, cached ? "cache" : type,
				model, System.nanoTime() - exchange.startNanos(), cached ? null : usage, errorType);
		KeyActivity activity = this.keys.activity(exchange.client());
		if (activity != null) {
			activity.record((cached || usage == null) ? 0 : usage.promptTokens() + usage.completionTokens(),
					System.currentTimeMillis());
		}
	}

	private void tag(Observation observation, ChatExchange exchange, @Nullable Usage usage,
			@Nullable String errorType) {
		Target target = exchange.target();
		if (target != null) {
			GenAiSpan.tag(observation, providerType(target), target.model(), exchange.servedFromCache() ? null : usage,
					errorType);
		}
	}

	private String providerType(Target target) {
		return this.providers.get(target.provider()).provider().type().name().toLowerCase();
	}

	static GatewayMetrics.Outcome outcome(Throwable error) {
		if (error instanceof UpstreamException upstream) {
			return new GatewayMetrics.Outcome(
					(upstream.kind() == UpstreamException.Kind.TIMEOUT) ? "timeout" : "upstream_error",
					upstream.status());
		}
		if (error instanceof DeniedException denied) {
			return new GatewayMetrics.Outcome("denied", denied.status());
		}
		if (error instanceof InvalidRequestException invalid) {
			return new GatewayMetrics.Outcome("client_error", invalid.status());
		}
		return new GatewayMetrics.Outcome("error", 500);
	}

	/**
	 * The error type as a tag: the gateway's own types and the providers' documented
	 * ones. An upstream may put anything in its error's type, even the key it was sent:
	 * anything else is {@code other}.
	 */
	static String errorType(Throwable error) {
		if (!(error instanceof GatewayException gateway)) {
			return "internal_error";
		}
		return ERROR_TYPES.contains(gateway.type()) ? gateway.type() : "other";
	}

}
