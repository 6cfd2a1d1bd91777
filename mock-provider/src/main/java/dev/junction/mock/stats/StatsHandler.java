package dev.junction.mock.stats;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /mock/stats} shows the counters as JSON; {@code DELETE /mock/stats} starts
 * them from zero.
 */
public final class StatsHandler {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final MockStats stats;

	public StatsHandler(MockStats stats) {
		this.stats = stats;
	}

	/** The current {@link StatsSnapshot}. */
	public Mono<ServerResponse> show(ServerRequest request) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(JSON.writeValueAsBytes(stats.snapshot()));
	}

	/** Resets the counters shown (not the metrics) and answers 204. */
	public Mono<ServerResponse> reset(ServerRequest request) {
		stats.reset();
		return ServerResponse.noContent().build();
	}

}
