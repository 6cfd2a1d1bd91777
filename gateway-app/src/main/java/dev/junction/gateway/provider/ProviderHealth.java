package dev.junction.gateway.provider;

import java.util.List;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How well the providers can serve now, judged by their upstream keys: a provider is
 * {@code up} with every key in rotation, {@code degraded} with some out (refused or
 * resting), {@code down} with none left; the providers together are {@code up} when each
 * is, {@code down} when none can serve, {@code degraded} otherwise. Keys are named by
 * position.
 *
 * @param status the providers' status together
 * @param keys per provider with keys: its status, key counts and the keys out of rotation
 */
public record ProviderHealth(String status, ObjectNode keys) {

	public static final String UP = "up";

	public static final String DEGRADED = "degraded";

	public static final String DOWN = "down";

	public static ProviderHealth of(ProviderRegistry providers) {
		ObjectNode keys = JsonNodeFactory.instance.objectNode();
		int total = 0;
		int up = 0;
		int down = 0;
		for (ProviderRegistry.Entry entry : providers.all()) {
			total++;
			List<KeyPool.KeyState> states = entry.keys().states();
			long inRotation = states.stream()
				.filter((state) -> state.state() == KeyPool.KeyState.State.IN_ROTATION)
				.count();
			String status = (inRotation == states.size()) ? UP : (inRotation == 0) ? DOWN : DEGRADED;
			up += UP.equals(status) ? 1 : 0;
			down += DOWN.equals(status) ? 1 : 0;
			if (states.isEmpty()) {
				continue;
			}
			ObjectNode provider = keys.putObject(entry.provider().name());
			provider.put("status", status);
			provider.put("total", states.size());
			provider.put("inRotation", inRotation);
			List<KeyPool.KeyState> out = states.stream()
				.filter((state) -> state.state() != KeyPool.KeyState.State.IN_ROTATION)
				.toList();
			if (!out.isEmpty()) {
				ArrayNode array = provider.putArray("outOfRotation");
				out.forEach((state) -> write(array.addObject(), state));
			}
		}
		String status = (total == 0 || down == total) ? DOWN : (up == total) ? UP : DEGRADED;
		return new ProviderHealth(status, keys);
	}

	private static void write(ObjectNode key, KeyPool.KeyState state) {
		key.put("key", state.key());
		key.put("state", state.state().tag());
		if (state.upstreamStatus() != null) {
			key.put("upstreamStatus", state.upstreamStatus());
		}
		if (state.since() != null) {
			key.put("since", state.since().toString());
		}
		if (state.until() != null) {
			key.put((state.state() == KeyPool.KeyState.State.REFUSED) ? "probeAt" : "restUntil",
					state.until().toString());
		}
	}

}
