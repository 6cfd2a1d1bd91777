package dev.junction.messaging.system;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.junction.messaging.common.Api;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /health}: the service's dependencies as the health indicators of
 * {@code /actuator/health} see them (database, and Redis when configured), aggregated and
 * mapped to an HTTP status the way Actuator does: 200 when UP or DEGRADED, 503 when DOWN.
 */
@RestController
class HealthController {

	/** The indicators reported, by their contributor names. */
	static final List<String> CHECKS = List.of("database", "redis");

	private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

	private final ReactiveHealthContributorRegistry registry;

	private final StatusAggregator aggregator;

	private final HttpCodeStatusMapper statusMapper;

	HealthController(ReactiveHealthContributorRegistry registry, StatusAggregator aggregator,
			HttpCodeStatusMapper statusMapper) {
		this.registry = registry;
		this.aggregator = aggregator;
		this.statusMapper = statusMapper;
	}

	@GetMapping(Api.BASE + "/health")
	Mono<ResponseEntity<ServiceHealth>> health() {
		return Flux.fromIterable(CHECKS)
			.filter((name) -> this.registry.getContributor(name) instanceof ReactiveHealthIndicator)
			.flatMapSequential((name) -> check((ReactiveHealthIndicator) this.registry.getContributor(name))
				.map((result) -> Map.entry(name, result)))
			.collectList()
			.map((results) -> {
				Map<String, Check> checks = new LinkedHashMap<>();
				results.forEach((entry) -> checks.put(entry.getKey(), entry.getValue()));
				Set<Status> statuses = checks.values()
					.stream()
					.map((check) -> new Status(check.status()))
					.collect(Collectors.toSet());
				Status status = this.aggregator.getAggregateStatus(statuses);
				return ResponseEntity.status(this.statusMapper.getStatusCode(status))
					.body(new ServiceHealth(status.getCode(), checks));
			});
	}

	private static Mono<Check> check(ReactiveHealthIndicator indicator) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return indicator.health()
				.timeout(CHECK_TIMEOUT)
				.onErrorResume((ex) -> Mono.just(Health.down().withDetail("error", describe(ex)).build()))
				.map((health) -> Check.of(health, (System.nanoTime() - start) / 1_000_000));
		});
	}

	/** What went wrong, without class names. */
	static String describe(Throwable ex) {
		String message = ex.getMessage();
		return (message != null) ? message : "no answer";
	}

	/**
	 * The service's health.
	 *
	 * @param status UP, DEGRADED (a dependency the service can do without is away) or
	 * DOWN
	 * @param checks each check's result by name
	 */
	record ServiceHealth(String status, Map<String, Check> checks) {
	}

	/**
	 * Outcome of one check.
	 *
	 * @param status the indicator's status
	 * @param latencyMs how long the check took, when UP
	 * @param error why it failed, when not UP
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Check(String status, Long latencyMs, String error) {

		static Check of(Health health, long latencyMs) {
			boolean up = Status.UP.equals(health.getStatus());
			Object error = health.getDetails().get("error");
			return new Check(health.getStatus().getCode(), up ? latencyMs : null,
					(!up && error != null) ? error.toString() : null);
		}

	}

}
