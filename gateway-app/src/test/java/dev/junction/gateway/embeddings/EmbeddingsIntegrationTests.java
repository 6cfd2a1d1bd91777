package dev.junction.gateway.embeddings;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import com.openai.errors.BadRequestException;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.junction.gateway.support.EmulatedGateway;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code POST /v1/embeddings} with the OpenAI Java SDK, passed through to the
 * gateway.emulator().
 */
class EmbeddingsIntegrationTests {

	private static final String KEY = "gw-embeddings-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	@RegisterExtension
	static final EmulatedGateway gateway = EmulatedGateway.emulator(Map.of("junction.mock.api-keys", "sk-emu"))
		.key(KEY)
		.properties("junction.gateway.cache.enabled=false")
		.mock()
		.openAi("emulator", "sk-emu")
		.properties("junction.gateway.models.embedder.targets[0]=emulator/text-embedding-3-small");

	@Test
	void embedsThroughAnOpenAiCompatibleProvider() {
		gateway.emulator().resetStats();
		CreateEmbeddingResponse response = gateway.openAiClient(KEY)
			.embeddings()
			.create(EmbeddingCreateParams.builder()
				.model("embedder")
				.inputOfArrayOfStrings(List.of("one", "two"))
				.build());
		assertThat(response.data()).hasSize(2);
		assertThat(response.data().get(0).embedding()).isNotEmpty();
		assertThat(response.data().get(0).embedding()).isNotEqualTo(response.data().get(1).embedding());
		assertThat(response.usage().promptTokens()).isPositive();
		assertThat(gateway.emulator().stats().route(Route.EMBEDDINGS).requests()).isEqualTo(1);
	}

	@Test
	void passesTheRequestThroughAsSent() {
		HttpResponse<String> response = gateway.post("/v1/embeddings", KEY,
				"{\"model\":\"emulator/text-embedding-3-small\",\"input\":\"hello\",\"encoding_format\":\"float\","
						+ "\"dimensions\":8}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode body = Json.parse(response.body());
		assertThat(body.path("object").asString()).isEqualTo("list");
		assertThat(body.path("data").path(0).path("embedding").size()).isEqualTo(8);
		assertThat(response.headers().firstValue("Server-Timing")).isPresent();
	}

	@Test
	void refusesProvidersWithoutEmbeddingsAndBadInputInOpenAisShape() {
		assertThatExceptionOfType(BadRequestException.class)
			.isThrownBy(() -> gateway.openAiClient(KEY)
				.embeddings()
				.create(EmbeddingCreateParams.builder().model("mock/echo-1").input("hi").build()))
			.satisfies((error) -> assertThat(error.getMessage()).contains("does not serve embeddings"));
		HttpResponse<String> noInput = gateway.post("/v1/embeddings", KEY,
				"{\"model\":\"emulator/text-embedding-3-small\"}");
		assertThat(noInput.statusCode()).isEqualTo(400);
		assertThat(Json.parse(noInput.body()).path("error").path("param").asString()).isEqualTo("input");
	}

}
