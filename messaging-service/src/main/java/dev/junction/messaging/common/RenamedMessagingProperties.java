package dev.junction.messaging.common;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.netty.RenamedProperties;

import org.springframework.boot.logging.DeferredLogFactory;

/**
 * The service's settings under their former names, read for one more release: the seeding
 * command's {@code seed.*}, {@code rate-limit.period} (now {@code window}, as in the
 * gateway) and the request limits now grouped under {@code http.*}, as in the gateway.
 */
public class RenamedMessagingProperties extends RenamedProperties {

	/** Former prefix of the seeding command's arguments. */
	public static final String FORMER_SEED_PREFIX = "seed";

	/**
	 * The seeding command's settings; other {@code seed.*} keys are not the service's.
	 */
	static final List<String> SEED_KEYS = List.of("instances", "chats", "messages", "events", "days", "batch-size");

	/** Former names and the names they now have. */
	static final Map<String, String> RENAMED = renamed();

	public RenamedMessagingProperties(DeferredLogFactory logs) {
		super(logs, RENAMED);
	}

	private static Map<String, String> renamed() {
		String prefix = MessagingProperties.PREFIX + ".";
		Map<String, String> renamed = new LinkedHashMap<>();
		SEED_KEYS.forEach((key) -> renamed.put(FORMER_SEED_PREFIX + "." + key, prefix + "seed." + key));
		renamed.put(prefix + "rate-limit.period", prefix + "rate-limit.window");
		List.of("max-body-size", "read-timeout", "request-timeout")
			.forEach((key) -> renamed.put(prefix + key, prefix + "http." + key));
		return Map.copyOf(renamed);
	}

}
