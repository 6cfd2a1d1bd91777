package dev.junction.mock.stats;

import java.util.Map;

/**
 * What the emulator has served since start or the last reset, as {@code GET /mock/stats}
 * shows it.
 *
 * @param routes counts per route, by {@link Route#tag()}
 * @param keys requests per presented API key, by the key's last four characters
 * @param activeStreams streams being written right now
 */
public record StatsSnapshot(Map<String, RouteStats> routes, Map<String, Long> keys, long activeStreams) {

	/** The counts of one route. */
	public RouteStats route(Route route) {
		return routes.getOrDefault(route.tag(), RouteStats.ZERO);
	}

	/** Requests that presented a key ending in these four characters. */
	public long requestsWithKeySuffix(String suffix) {
		return keys.getOrDefault(suffix, 0L);
	}
}
