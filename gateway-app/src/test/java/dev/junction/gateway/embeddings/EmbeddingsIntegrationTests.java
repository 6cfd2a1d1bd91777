package dev.junction.gateway.embeddings;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code POST /v1/embeddings} with the OpenAI Java SDK, passed through to the emulator.
 */
class EmbeddingsIntegrationTests {

	private static final String KEY = "gw-embeddings-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer emulator;

	private static RunningGateway gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-emu"));
		List<String> properties = new ArrayList<>(
				List.of("junction.gateway.auth.keys[0]=" + KEY, "junction.gateway.cache.enabled=false",
						"junction.gateway.providers.mock.type=mock", "junction.gateway.providers.emulator.type=openai",
						"junction.gateway.providers.emulator.base-url=" + emulator.openAiBaseUrl(),
						"junction.gateway.providers.emulator.keys[0].value=sk-emu",
						"junction.gateway.models.embedder.targets[0]=emulator/text-embedding-3-small"));
		gateway = RunningGateway.start(properties);
		client = gateway.openAiClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
		emulator.close();
	}

	@Test
	void embedsThroughAnOpenAiCompatibleProvider() {
		emulator.resetStats();
		CreateEmbeddingResponse response = client.embeddings()
			.create(EmbeddingCreateParams.builder()
				.model("embedder")
				.inputOfArrayOfStrings(List.of("one", "two"))
				.build());
		assertThat(response.data()).hasSize(2);
		assertThat(response.data().get(0).embedding()).isNotEmpty();
		assertThat(response.data().get(0).embedding()).isNotEqualTo(response.data().get(1).embedding());
		assertThat(response.usage().promptTokens()).isPositive();
		assertThat(emulator.stats().route(Route.EMBEDDINGS).requests()).isEqualTo(1);
	}

	@Test
	void passesTheRequestThroughAsSent() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/embeddings", "Bearer " + KEY,
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
			.isThrownBy(() -> client.embeddings()
				.create(EmbeddingCreateParams.builder().model("mock/echo-1").input("hi").build()))
			.satisfies((error) -> assertThat(error.getMessage()).contains("does not serve embeddings"));
		HttpResponse<String> noInput = Http.post(gateway.baseUrl() + "/v1/embeddings", "Bearer " + KEY,
				"{\"model\":\"emulator/text-embedding-3-small\"}");
		assertThat(noInput.statusCode()).isEqualTo(400);
		assertThat(Json.parse(noInput.body()).path("error").path("param").asString()).isEqualTo("input");
	}

}
