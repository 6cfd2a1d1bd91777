package dev.junction.messaging.system;

import com.fasterxml.jackson.annotation.JsonInclude;
import reactor.core.publisher.Mono;

/** One dependency the health endpoint checks. */
public interface HealthCheck {

	/** Name of the check in the health document. */
	String name();

	/** The check's result; an error counts as DOWN. */
	Mono<Result> check();

	/**
	 * Outcome of a check.
	 *
	 * @param status UP or DOWN
	 * @param latencyMs how long the check took, when UP
	 * @param error why it failed, when DOWN
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Result(String status, Long latencyMs, String error) {

		public static Result up(long latencyMs) {
			return new Result("UP", latencyMs, null);
		}

		public static Result down(String error) {
			return new Result("DOWN", null, error);
		}

		boolean up() {
			return "UP".equals(this.status);
		}

	}

}
