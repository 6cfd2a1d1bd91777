package dev.junction.gateway.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.netty.RenamedProperties;

import org.springframework.boot.logging.DeferredLogFactory;

/**
 * The gateway's settings under their former names, read for one more release: everything
 * now under {@code junction.gateway.*}, the calculator client's settings once under
 * {@code junction.calculator.*} (calculator-service's own namespace) included.
 */
public class RenamedGatewayProperties extends RenamedProperties {

	/** The gateway's former top-level names under {@code junction.*}. */
	static final List<String> FORMER_GROUPS = List.of("providers", "providers-defaults", "models", "auth", "http",
			"rate-limit", "cache", "prices", "rpc", "virtual-keys", "messages", "cors");

	/**
	 * The calculator client's settings; the rest of {@code junction.calculator.*} is the
	 * server's.
	 */
	static final List<String> FORMER_CALCULATOR_KEYS = List.of("address", "deadline", "health-deadline",
			"health-cache-ttl", "jwt-token", "keep-alive-time", "keep-alive-timeout", "tls");

	/** Former names and the names they now have. */
	static final Map<String, String> RENAMED = renamed();

	public RenamedGatewayProperties(DeferredLogFactory logs) {
		super(logs, RENAMED);
	}

	private static Map<String, String> renamed() {
		Map<String, String> renamed = new LinkedHashMap<>();
		FORMER_GROUPS.forEach((group) -> renamed.put("junction." + group, GatewayProperties.PREFIX + "." + group));
		FORMER_CALCULATOR_KEYS.forEach(
				(key) -> renamed.put("junction.calculator." + key, GatewayProperties.PREFIX + ".calculator." + key));
		return Map.copyOf(renamed);
	}

}
