package dev.junction.gateway.embeddings;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import dev.junction.gateway.metrics.GatewayMetrics;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.openai.OpenAiEmbeddingModel;
import org.springframework.ai.openai.OpenAiEmbeddingOptions;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /v1/embeddings} for a provider served through Spring AI (anthropic),
 * answered by the Spring AI {@link EmbeddingModel} bean it is configured with: a real one
 * talking HTTP to the provider emulator, with the OpenAI Java SDK as the client.
 */
class SpringAiEmbeddingsIntegrationTests {

	private static final String KEY = "gw-spring-ai-embeddings-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer emulator;

	private static GatewayFixture gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-emu"));
		DisposableServer closed = HttpServer.create().host("127.0.0.1").port(0).bindNow();
		int closedPort = closed.port();
		closed.disposeNow(Duration.ofSeconds(5));
		gateway = GatewayFixture.withKey(KEY)
			.properties("junction.gateway.cache.enabled=false", "resilience4j.retry.configs.default.max-attempts=1",
					"test.embeddings.base-url=" + emulator.openAiBaseUrl(),
					"test.embeddings.closed-url=http://127.0.0.1:" + closedPort + "/v1",
					"junction.gateway.models.vectors.targets[0]=claude/text-embedding-3-small")
			.anthropic("claude", emulator, "sk-emu")
			.properties("junction.gateway.providers.claude.embedding-model=emulatorEmbeddings")
			.anthropic("plain", emulator, "sk-emu")
			.anthropic("broken", emulator, "sk-emu")
			.properties("junction.gateway.providers.broken.embedding-model=unreachableEmbeddings")
			.start(EmbeddingModels.class);
		client = gateway.openAiClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@BeforeEach
	void resetStats() {
		emulator.resetStats();
	}

	@Test
	void embedsThroughTheProvidersSpringAiEmbeddingModelWithUsage() {
		CreateEmbeddingResponse response = client.embeddings()
			.create(EmbeddingCreateParams.builder()
				.model("vectors")
				.inputOfArrayOfStrings(List.of("one", "two"))
				.build());

		assertThat(response.data()).hasSize(2);
		assertThat(response.data().get(0).index()).isZero();
		assertThat(response.data().get(1).index()).isEqualTo(1);
		assertThat(response.data().get(0).embedding()).isNotEmpty().isNotEqualTo(response.data().get(1).embedding());
		assertThat(response.usage().promptTokens()).isPositive();
		assertThat(response.usage().totalTokens()).isEqualTo(response.usage().promptTokens());
		assertThat(emulator.stats().route(Route.EMBEDDINGS).requests()).isEqualTo(1);
		assertThat(emulator.stats().route(Route.MESSAGES).requests()).isZero();
		MeterRegistry registry = gateway.context().getBean(MeterRegistry.class);
		// Recorded as the exchange ends, which may be just after the client has its
		// answer.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(registry.get(GatewayMetrics.TOKEN_USAGE)
				.tag("gen_ai.request.model", "text-embedding-3-small")
				.tag("gen_ai.token.type", "input")
				.summary()
				.totalAmount()).isEqualTo(response.usage().promptTokens()));
	}

	@Test
	void passesDimensionsAndEncodesBase64AsOpenAiDoes() {
		String request = "{\"model\":\"claude/text-embedding-3-small\",\"input\":\"hello\",\"dimensions\":8";
		HttpResponse<String> floats = gateway.post("/v1/embeddings", KEY, request + "}");
		HttpResponse<String> base64 = gateway.post("/v1/embeddings", KEY, request + ",\"encoding_format\":\"base64\"}");

		assertThat(floats.statusCode()).as(floats.body()).isEqualTo(200);
		assertThat(base64.statusCode()).as(base64.body()).isEqualTo(200);
		JsonNode vector = Json.parse(floats.body()).path("data").path(0).path("embedding");
		assertThat(vector.size()).isEqualTo(8);
		ByteBuffer decoded = ByteBuffer
			.wrap(Base64.getDecoder()
				.decode(Json.parse(base64.body()).path("data").path(0).path("embedding").asString()))
			.order(ByteOrder.LITTLE_ENDIAN);
		assertThat(decoded.remaining()).isEqualTo(8 * Float.BYTES);
		for (int i = 0; i < 8; i++) {
			assertThat(decoded.getFloat()).isEqualTo(vector.get(i).floatValue());
		}
		assertThat(Json.parse(floats.body()).path("object").asString()).isEqualTo("list");
		assertThat(floats.headers().firstValue("Server-Timing")).isPresent();
	}

	@Test
	void refusesAProviderWithoutAnEmbeddingModelAndTokenInputInOpenAisShape() {
		assertThatExceptionOfType(BadRequestException.class)
			.isThrownBy(() -> client.embeddings()
				.create(EmbeddingCreateParams.builder().model("plain/text-embedding-3-small").input("hi").build()))
			.satisfies((error) -> assertThat(error.getMessage()).contains("'plain' does not serve embeddings"));
		HttpResponse<String> tokens = gateway.post("/v1/embeddings", KEY,
				"{\"model\":\"claude/text-embedding-3-small\",\"input\":[[1,2,3]]}");
		assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(400);
		assertThat(Json.parse(tokens.body()).path("error").path("param").asString()).isEqualTo("input");
		HttpResponse<String> format = gateway.post("/v1/embeddings", KEY,
				"{\"model\":\"claude/text-embedding-3-small\",\"input\":\"x\",\"encoding_format\":\"int8\"}");
		assertThat(format.statusCode()).isEqualTo(400);
		assertThat(Json.parse(format.body()).path("error").path("param").asString()).isEqualTo("encoding_format");
		assertThat(emulator.stats().route(Route.EMBEDDINGS).requests()).isZero();
	}

	@Test
	void blamesAnUnreachableEmbeddingModelOnTheProvider() {
		HttpResponse<String> response = gateway.post("/v1/embeddings", KEY,
				"{\"model\":\"broken/text-embedding-3-small\",\"input\":\"hi\"}");

		assertThat(response.statusCode()).as(response.body()).isBetween(502, 504);
		assertThat(Json.parse(response.body()).path("error").path("message").asString()).contains("'broken'");
	}

	@Test
	void refusesCallsWithoutAGatewayKey() {
		HttpResponse<String> response = gateway.post("/v1/embeddings", "wrong",
				"{\"model\":\"vectors\",\"input\":\"hi\"}");

		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(emulator.stats().route(Route.EMBEDDINGS).requests()).isZero();
	}

	/**
	 * Spring AI embedding models, as an application embedding the gateway declares them.
	 */
	static class EmbeddingModels {

		@Bean
		EmbeddingModel emulatorEmbeddings(Environment environment) {
			return model(environment.getRequiredProperty("test.embeddings.base-url"));
		}

		@Bean
		EmbeddingModel unreachableEmbeddings(Environment environment) {
			return model(environment.getRequiredProperty("test.embeddings.closed-url"));
		}

		private static EmbeddingModel model(String baseUrl) {
			return OpenAiEmbeddingModel.builder()
				.options(OpenAiEmbeddingOptions.builder()
					.baseUrl(baseUrl)
					.apiKey("sk-emu")
					.maxRetries(0)
					.timeout(Duration.ofSeconds(10))
					.build())
				.build();
		}

	}

}
