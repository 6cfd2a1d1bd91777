package dev.junction.mock.embeddings;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.completion.MockText;
import dev.junction.mock.stats.Route;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code POST /v1/embeddings} on the wire: deterministic unit vectors, both encodings,
 * usage, errors, faults.
 */
class EmbeddingsIntegrationTests {

	private static final String PATH = "/v1/embeddings";

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start();
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void answersAUnitVectorPerInputWithUsage() {
		Response response = http.post(PATH,
				"{\"model\":\"text-embedding-3-small\",\"input\":[\"hello world\",\"another text\"]}");

		assertThat(response.status()).isEqualTo(200);
		JsonNode json = response.json();
		assertThat(json.path("object").stringValue()).isEqualTo("list");
		assertThat(json.path("model").stringValue()).isEqualTo("text-embedding-3-small");
		assertThat(json.path("data").size()).isEqualTo(2);
		for (int i = 0; i < 2; i++) {
			JsonNode item = json.path("data").get(i);
			assertThat(item.path("object").stringValue()).isEqualTo("embedding");
			assertThat(item.path("index").intValue()).isEqualTo(i);
			assertThat(item.path("embedding").size()).isEqualTo(1536);
			assertThat(norm(floats(item.path("embedding")))).isCloseTo(1.0, within(1e-4));
		}
		int tokens = MockText.estimateTokens(11) + MockText.estimateTokens(12);
		assertThat(json.path("usage").path("prompt_tokens").intValue()).isEqualTo(tokens);
		assertThat(json.path("usage").path("total_tokens").intValue()).isEqualTo(tokens);
	}

	@Test
	void givesTheSameInputTheSameVectorAndOthersAnother() {
		float[] first = floats(embed("\"same text\"", "").path("data").get(0).path("embedding"));
		float[] again = floats(embed("\"same text\"", "").path("data").get(0).path("embedding"));
		float[] other = floats(embed("\"other text\"", "").path("data").get(0).path("embedding"));

		assertThat(again).containsExactly(first);
		assertThat(Math.abs(dot(first, other))).isLessThan(0.2);
	}

	@Test
	void encodesAsLittleEndianFloat32Base64() {
		float[] floats = floats(embed("\"hello\"", "").path("data").get(0).path("embedding"));
		String encoded = embed("\"hello\"", ",\"encoding_format\":\"base64\"").path("data")
			.get(0)
			.path("embedding")
			.stringValue();

		ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(encoded)).order(ByteOrder.LITTLE_ENDIAN);
		float[] decoded = new float[bytes.remaining() / Float.BYTES];
		bytes.asFloatBuffer().get(decoded);
		assertThat(decoded).containsExactly(floats);
	}

	@Test
	void honoursDimensionsModelsAndTokenInputs() {
		assertThat(embed("\"hello\"", ",\"dimensions\":256").path("data").get(0).path("embedding").size())
			.isEqualTo(256);
		JsonNode large = http.post(PATH, "{\"model\":\"text-embedding-3-large\",\"input\":\"hello\"}").json();
		assertThat(large.path("data").get(0).path("embedding").size()).isEqualTo(3072);
		JsonNode tokens = embed("[[1,2,3],[4,5]]", "");
		assertThat(tokens.path("data").size()).isEqualTo(2);
		assertThat(tokens.path("usage").path("prompt_tokens").intValue()).isEqualTo(5);
		assertThat(embed("[7,8,9,10]", "").path("usage").path("prompt_tokens").intValue()).isEqualTo(4);
	}

	@Test
	void refusesBadInputInOpenAisErrorShape() {
		assertBadRequest("{\"model\":\"text-embedding-3-small\"}", "input");
		assertBadRequest("{\"model\":\"text-embedding-3-small\",\"input\":\"\"}", "input");
		assertBadRequest("{\"model\":\"text-embedding-3-small\",\"input\":[]}", "input");
		assertBadRequest("{\"model\":\"text-embedding-3-small\",\"input\":[\"a\",{\"x\":1}]}", "input");
		assertBadRequest("{\"model\":\"text-embedding-3-small\",\"input\":\"a\",\"encoding_format\":\"int8\"}",
				"encoding_format");
		assertBadRequest("{\"model\":\"text-embedding-3-small\",\"input\":\"a\",\"dimensions\":0}", "dimensions");
		assertBadRequest("{\"input\":\"a\"}", "model");
	}

	@Test
	void obeysTheFaultHeaders() {
		server.resetStats();
		Response failed = http.post(PATH, "{\"model\":\"text-embedding-3-small\",\"input\":\"a\"}",
				Map.of("x-mock-status", "503"));

		assertThat(failed.status()).isEqualTo(503);
		assertThat(failed.json().path("error").path("type").stringValue()).isEqualTo("server_error");
		assertThat(server.stats().route(Route.EMBEDDINGS).errors()).isEqualTo(1);
	}

	private static JsonNode embed(String input, String extra) {
		return http.post(PATH, "{\"model\":\"text-embedding-3-small\",\"input\":" + input + extra + "}").json();
	}

	private static void assertBadRequest(String body, String param) {
		Response response = http.post(PATH, body);
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(response.json().path("error").path("param").stringValue()).isEqualTo(param);
	}

	private static float[] floats(JsonNode array) {
		float[] values = new float[array.size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = array.get(i).floatValue();
		}
		return values;
	}

	private static double norm(float[] vector) {
		return Math.sqrt(dot(vector, vector));
	}

	private static double dot(float[] a, float[] b) {
		double sum = 0;
		for (int i = 0; i < a.length; i++) {
			sum += (double) a[i] * b[i];
		}
		return sum;
	}

}
