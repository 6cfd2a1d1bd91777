package dev.junction.mock.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.netty.RenamedProperties;

import org.springframework.boot.logging.DeferredLogFactory;

/**
 * The emulator's settings under their former names, {@code mock.*}, read for one more
 * release as {@value MockProperties#PREFIX}{@code .*}; the request limits are now
 * {@code http.max-body-size} and {@code http.read-timeout}, as in the gateway and
 * messaging-service.
 */
public class RenamedMockProperties extends RenamedProperties {

	/** Former names and the names they now have. */
	static final Map<String, String> RENAMED = renamed();

	public RenamedMockProperties(DeferredLogFactory logs) {
		super(logs, RENAMED);
	}

	private static Map<String, String> renamed() {
		Map<String, String> renamed = new LinkedHashMap<>();
		List.of("latency-ms", "jitter-ms", "chunk-delay-ms", "error-rate", "error-status", "retry-after-seconds",
				"stream-chunks", "completion-tokens", "truncate-stream-after", "api-keys", "models")
			.forEach((key) -> renamed.put("mock." + key, MockProperties.PREFIX + "." + key));
		renamed.put("mock.max-request-size", MockProperties.PREFIX + ".http.max-body-size");
		renamed.put("mock.read-timeout", MockProperties.PREFIX + ".http.read-timeout");
		return Map.copyOf(renamed);
	}

}
