package dev.junction.messaging.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DuplicateKeyException;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemExceptionHandlerTests {

	private final ProblemExceptionHandler handler = new ProblemExceptionHandler(JsonMapper.builder().build());

	@Test
	void hidesUnexpectedFailuresBehindA500() {
		Problem problem = this.handler.toProblem(new IllegalStateException("secret internals"), "/api/v2/x", "test-request");
		assertThat(problem.status()).isEqualTo(500);
		assertThat(problem.type().toString()).isEqualTo("https://junction.dev/problems/internal");
		assertThat(problem.detail()).doesNotContain("secret");
	}

	@Test
	void mapsApiExceptionsToTheirTypes() {
		assertThat(this.handler.toProblem(ApiException.requestTimeout(Duration.ofSeconds(30)), "/p", "test-request").status()).isEqualTo(408);
		assertThat(this.handler.toProblem(RateLimitedException.of("messages", 60, 3), "/p", "test-request").status()).isEqualTo(429);
		assertThat(this.handler.toProblem(new DuplicateKeyException("dup"), "/p", "test-request").status()).isEqualTo(409);
		Problem invalid = this.handler.toProblem(ApiException.invalid("limit", "too big"), "/p", "test-request");
		assertThat(invalid.status()).isEqualTo(400);
		assertThat(invalid.field()).isEqualTo("limit");
	}

}
