package dev.junction.mock.behavior;

import java.util.concurrent.ThreadLocalRandom;

import dev.junction.mock.config.MockProperties;

import org.springframework.http.HttpHeaders;

/**
 * Resolves the {@link Behavior} of a request: its {@code x-mock-*} headers first, then
 * the properties.
 */
public final class BehaviorResolver {

	private final MockProperties properties;

	private final int truncateAfter;

	public BehaviorResolver(MockProperties properties) {
		this.properties = properties;
		this.truncateAfter = (properties.truncateStreamAfter() != null) ? properties.truncateStreamAfter() : -1;
	}

	/**
	 * The behaviour for a request with these headers.
	 * @throws InvalidMockHeaderException when an {@code x-mock-*} header has an unusable
	 * value
	 */
	public Behavior resolve(HttpHeaders headers) {
		long latency = longHeader(headers, MockHeaders.LATENCY_MS, 0, Long.MAX_VALUE, -1);
		return new Behavior((latency >= 0) ? latency : propertyLatency(),
				longHeader(headers, MockHeaders.CHUNK_DELAY_MS, 0, Long.MAX_VALUE, properties.chunkDelayMs()),
				errorStatus(headers),
				longHeader(headers, MockHeaders.RETRY_AFTER, 0, Long.MAX_VALUE, properties.retryAfterSeconds()),
				(int) longHeader(headers, MockHeaders.COMPLETION_TOKENS, 1, Integer.MAX_VALUE,
						properties.completionTokens()),
				(int) longHeader(headers, MockHeaders.STREAM_CHUNKS, 0, Integer.MAX_VALUE, properties.streamChunks()),
				(int) longHeader(headers, MockHeaders.TRUNCATE_AFTER, 0, Integer.MAX_VALUE, truncateAfter),
				flag(headers, MockHeaders.STALL), flag(headers, MockHeaders.RESET));
	}

	private long propertyLatency() {
		long jitter = properties.jitterMs();
		return properties.latencyMs() + ((jitter > 0) ? ThreadLocalRandom.current().nextLong(jitter + 1) : 0);
	}

	private int errorStatus(HttpHeaders headers) {
		long status = longHeader(headers, MockHeaders.STATUS, 100, 599, 0);
		if (status >= 400) {
			return (int) status;
		}
		if (status != 0) {
			return 0;
		}
		double rate = properties.errorRate();
		return (rate > 0 && ThreadLocalRandom.current().nextDouble() < rate) ? properties.errorStatus() : 0;
	}

	private static long longHeader(HttpHeaders headers, String name, long min, long max, long absent) {
		String value = headers.getFirst(name);
		if (value == null) {
			return absent;
		}
		try {
			long parsed = Long.parseLong(value.trim());
			if (parsed < min || parsed > max) {
				throw new InvalidMockHeaderException(name, value, "must be between " + min + " and " + max);
			}
			return parsed;
		}
		catch (NumberFormatException ex) {
			throw new InvalidMockHeaderException(name, value, "must be a whole number");
		}
	}

	private static boolean flag(HttpHeaders headers, String name) {
		String value = headers.getFirst(name);
		if (value == null) {
			return false;
		}
		return switch (value.trim().toLowerCase()) {
			case "true", "1", "yes" -> true;
			case "false", "0", "no", "" -> false;
			default -> throw new InvalidMockHeaderException(name, value, "must be true or false");
		};
	}

}
