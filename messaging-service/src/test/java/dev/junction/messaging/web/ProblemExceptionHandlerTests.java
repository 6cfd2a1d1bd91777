package dev.junction.messaging.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemExceptionHandlerTests {

	private final ProblemExceptionHandler handler = new ProblemExceptionHandler(JsonMapper.builder().build());

	@Test
	void hidesUnexpectedFailuresBehindA500() {
		ProblemDetail problem = this.handler.toProblem(new IllegalStateException("secret internals"), "/api/v2/x",
				"test-request");
		assertThat(problem.getStatus()).isEqualTo(500);
		assertThat(problem.getType()).hasToString("https://junction.dev/problems/internal");
		assertThat(problem.getInstance()).hasToString("/api/v2/x");
		assertThat(problem.getDetail()).doesNotContain("secret");
	}

	@Test
	void mapsApiExceptionsToTheirTypes() {
		assertThat(this.handler.toProblem(ApiException.requestTimeout(Duration.ofSeconds(30)), "/p", "test-request")
			.getStatus()).isEqualTo(408);
		assertThat(this.handler.toProblem(RateLimitedException.of("messages", 60, 3), "/p", "test-request").getStatus())
			.isEqualTo(429);
		assertThat(this.handler.toProblem(new DuplicateKeyException("dup"), "/p", "test-request").getStatus())
			.isEqualTo(409);
		ProblemDetail invalid = this.handler.toProblem(ApiException.invalid("limit", "too big"), "/p", "test-request");
		assertThat(invalid.getStatus()).isEqualTo(400);
		assertThat(invalid.getProperties()).containsEntry("field", "limit");
	}

	@Test
	void writesSpringsProblemDetailAsAFlatProblemDocument() {
		JsonMapper mapper = JsonMapper.builder().addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build();
		ProblemDetail problem = this.handler.toProblem(ApiException.invalid("limit", "too big"), "/api/v2/messages",
				"test-request");
		JsonNode json = mapper.readTree(mapper.writeValueAsString(problem));
		assertThat(json.get("type").asString()).isEqualTo("https://junction.dev/problems/invalid-request");
		assertThat(json.get("title").asString()).isEqualTo("Invalid request");
		assertThat(json.get("status").asInt()).isEqualTo(400);
		assertThat(json.get("detail").asString()).isEqualTo("Invalid 'limit': too big");
		assertThat(json.get("instance").asString()).isEqualTo("/api/v2/messages");
		assertThat(json.get("field").asString()).isEqualTo("limit");
		assertThat(json.get("errors").get(0).get("message").asString()).isEqualTo("Invalid 'limit': too big");
		assertThat(json.has("properties")).isFalse();
	}

	@Test
	void givesARateLimitedAnswerItsRetryAfterHeader() {
		assertThat(RateLimitedException.of("messages", 60, 7).getHeaders().getFirst("Retry-After")).isEqualTo("7");
	}

}
