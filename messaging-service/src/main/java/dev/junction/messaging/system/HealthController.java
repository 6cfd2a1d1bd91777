package dev.junction.messaging.system;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.junction.messaging.common.Api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /health}: 200 when every check passes, 503 naming the failing check otherwise. */
@RestController
class HealthController {

	private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

	private final List<HealthCheck> checks;

	HealthController(List<HealthCheck> checks) {
		this.checks = checks;
	}

	@GetMapping(Api.BASE + "/health")
	Mono<ResponseEntity<Health>> health() {
		return Flux.fromIterable(this.checks)
			.flatMapSequential((check) -> check.check()
				.timeout(CHECK_TIMEOUT)
				.onErrorResume((ex) -> Mono.just(HealthCheck.Result.down(describe(ex))))
				.map((result) -> Map.entry(check.name(), result)))
			.collectList()
			.map((results) -> {
				Map<String, HealthCheck.Result> byName = new LinkedHashMap<>();
				results.forEach((entry) -> byName.put(entry.getKey(), entry.getValue()));
				boolean up = byName.values().stream().allMatch(HealthCheck.Result::up);
				Health health = new Health(up ? "UP" : "DOWN", byName);
				return ResponseEntity.status(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).body(health);
			});
	}

	private static String describe(Throwable ex) {
		String message = ex.getMessage();
		return ex.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

	/**
	 * The service's health.
	 *
	 * @param status UP when every check passes
	 * @param checks each check's result by name
	 */
	record Health(String status, Map<String, HealthCheck.Result> checks) {
	}

}
