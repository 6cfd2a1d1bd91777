package dev.junction.mock.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

/**
 * How the emulator behaves when a request does not say otherwise with {@code x-mock-*}
 * headers. Checked in the constructor, so that the Spring application and
 * {@code MockProviderServer} both fail fast with the name of the wrong property.
 *
 * @param latencyMs fixed delay in milliseconds before every answer (time to first byte)
 * @param jitterMs extra random delay in milliseconds, uniform in [0, jitter-ms], added to
 * the latency
 * @param chunkDelayMs delay in milliseconds between two events of a stream
 * @param errorRate share of requests (0..1) answered with {@code error-status} instead of
 * a completion
 * @param errorStatus HTTP status (400..599) of the errors injected by {@code error-rate}
 * @param retryAfterSeconds value of the Retry-After header on 429, 503 and 529 errors; 0
 * sends none
 * @param streamChunks content chunks per streamed answer; 0 streams one chunk per token
 * @param completionTokens completion tokens per answer, lowered to the request's
 * max_tokens when smaller
 * @param truncateStreamAfter stream events after which every stream is cut off without
 * its end; unset never cuts
 * @param apiKeys accepted API keys; empty accepts any key, or none
 * @param models model ids listed by {@code GET /v1/models}
 * @param http limits on inbound requests
 */
@ConfigurationProperties(MockProperties.PREFIX)
public record MockProperties(@DefaultValue("0") long latencyMs, @DefaultValue("0") long jitterMs,
		@DefaultValue("0") long chunkDelayMs, @DefaultValue("0") double errorRate, @DefaultValue("500") int errorStatus,
		@DefaultValue("1") long retryAfterSeconds, @DefaultValue("8") int streamChunks,
		@DefaultValue("16") int completionTokens, Integer truncateStreamAfter, List<String> apiKeys, @DefaultValue( {
				"gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "claude-haiku-4-5", "claude-sonnet-4-5" }) List<String> models,
		@DefaultValue Http http){

	/** Prefix of every property of the emulator. */
	public static final String PREFIX = "junction.mock";

	public MockProperties {
		require(latencyMs >= 0, "latency-ms", "must be >= 0");
		require(jitterMs >= 0, "jitter-ms", "must be >= 0");
		require(chunkDelayMs >= 0, "chunk-delay-ms", "must be >= 0");
		require(errorRate >= 0 && errorRate <= 1, "error-rate", "must be between 0 and 1");
		require(errorStatus >= 400 && errorStatus <= 599, "error-status", "must be an HTTP error status (400..599)");
		require(retryAfterSeconds >= 0, "retry-after-seconds", "must be >= 0");
		require(streamChunks >= 0, "stream-chunks", "must be >= 0");
		require(completionTokens >= 1, "completion-tokens", "must be >= 1");
		require(truncateStreamAfter == null || truncateStreamAfter >= 0, "truncate-stream-after", "must be >= 0");
		require(http.maxBodySize().toBytes() > 0, "http.max-body-size", "must be > 0");
		require(http.readTimeout().toMillis() > 0, "http.read-timeout", "must be at least 1ms");
		apiKeys = (apiKeys != null) ? apiKeys.stream().filter((key) -> !key.isBlank()).toList() : List.of();
		models = (models != null) ? List.copyOf(models) : List.of();
	}

	/**
	 * Limits on inbound HTTP requests, named as the gateway's and messaging-service's.
	 *
	 * @param maxBodySize largest request body accepted; a larger one gets 413
	 * @param readTimeout longest wait for the next bytes of a request body; then 408 and
	 * the connection is closed
	 */
	public record Http(@DefaultValue("16MB") DataSize maxBodySize, @DefaultValue("30s") Duration readTimeout) {
	}

	/** The defaults, as {@code java -jar} with no configuration runs. */
	public static MockProperties defaults() {
		return bind(Map.of());
	}

	/**
	 * Binds properties given by their full names
	 * ({@code "junction.mock.latency-ms" -> 50}), as the application would read them from
	 * its environment; names not under {@code junction.mock.} are ignored.
	 */
	public static MockProperties bind(Map<String, ?> properties) {
		Map<String, Object> values = new LinkedHashMap<>();
		properties.forEach((name, value) -> values.put(name, (value instanceof List<?> list) ? join(list) : value));
		return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(PREFIX, MockProperties.class);
	}

	private static String join(List<?> values) {
		return String.join(",", values.stream().map(String::valueOf).toList());
	}

	private static void require(boolean condition, String property, String rule) {
		if (!condition) {
			throw new IllegalArgumentException(PREFIX + "." + property + " " + rule);
		}
	}
}
