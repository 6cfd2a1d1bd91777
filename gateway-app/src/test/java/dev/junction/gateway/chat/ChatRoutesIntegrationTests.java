package dev.junction.gateway.chat;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.errors.NotFoundException;
import com.openai.models.models.Model;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The gateway's HTTP surface on a real server: methods, {@code Server-Timing} on every
 * answer, and {@code /v1/models} with what configured and upstream providers offer, read
 * by the official OpenAI SDK.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChatRoutesIntegrationTests {

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer emulator;

	private static GatewayFixture gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() throws Exception {
		emulator = MockProviderServer.start(Map.of("junction.mock.models", "gpt-4o-mini,gpt-4.1-mini"));
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		gateway = GatewayFixture.with("junction.gateway.models.fast.targets[0]=emulator/gpt-4o-mini")
			.mock()
			.openAi("emulator", emulator, "sk-emu")
			.properties("junction.gateway.providers.emulator.models[0]=house-model")
			.openAi("gone", "http://127.0.0.1:" + closedPort + "/v1", "sk-gone")
			.properties("junction.gateway.providers.gone.models[0]=kept")
			.start();
		client = gateway.openAiClient("unused");
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void answersAWrongMethodOnAKnownPathWith405AndAllow() {
		assertNotAllowed("GET", "/v1/chat/completions", "POST");
		assertNotAllowed("PUT", "/ai/chat/completions", "POST");
		assertNotAllowed("POST", "/v1/models", "GET,HEAD");
		assertNotAllowed("DELETE", "/v1/models/emulator/gpt-4o-mini", "GET,HEAD");
		assertNotAllowed("POST", "/health", "GET,HEAD");
		HttpResponse<String> trpc = send("PUT", "/trpc/system.health");
		assertThat(trpc.statusCode()).isEqualTo(405);
		assertThat(allow(trpc)).isEqualTo("GET,POST");
		assertThat(Json.parse(trpc.body()).path("error").path("data").path("code").asString())
			.isEqualTo("METHOD_NOT_SUPPORTED");
		HttpResponse<String> rpc = send("GET", "/rpc");
		assertThat(rpc.statusCode()).isEqualTo(405);
		assertThat(allow(rpc)).isEqualTo("POST");
		assertThat(rpc.body()).contains("\"jsonrpc\":\"2.0\"");
		assertThat(send("GET", "/no/such/path").statusCode()).isEqualTo(404);
	}

	@Test
	void answersAPathThatClimbsOutOfTheRootWith404AndNoWarning(CapturedOutput output) {
		HttpResponse<String> response = send("GET", "/%2e%2e/admin");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(Json.parse(response.body()).path("error").path("type").asString())
			.isEqualTo("invalid_request_error");
		assertThat(output.getAll()).doesNotContain("Path contains");
	}

	@Test
	void answersHeadLikeGetWithoutABody() {
		HttpResponse<String> health = send("HEAD", "/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).isEmpty();
		assertThat(send("HEAD", "/v1/models").statusCode()).isEqualTo(200);
	}

	@Test
	void writesServerTimingOnEveryAnswer() {
		for (String path : List.of("/v1/models", "/health", "/no/such/path", "/actuator/health",
				"/v1/models/nope/nothing")) {
			HttpResponse<String> response = send("GET", path);
			assertThat(response.headers().firstValue("server-timing")).as(path)
				.hasValueSatisfying(
						(timing) -> assertThat(timing).matches("gateway;dur=[0-9]+\\.[0-9]{3}, upstream;dur=0\\.000"));
			assertThat(response.headers().firstValue("x-request-id")).as(path).isPresent();
		}
		HttpResponse<String> rpc = Http.post(gateway.baseUrl() + "/rpc", null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}");
		assertThat(rpc.headers().firstValue("server-timing")).isPresent();
	}

	@Test
	void listsAliasesConfiguredModelsAndWhatAnOpenAiCompatibleUpstreamOffers() {
		long listed = emulator.stats().route(Route.MODELS).requests();
		JsonNode list = Json.parse(send("GET", "/v1/models").body());
		List<String> ids = new ArrayList<>();
		list.path("data").forEach((model) -> ids.add(model.path("id").asString()));
		assertThat(ids).containsExactlyInAnyOrder("fast", "mock/echo-1", "emulator/house-model", "emulator/gpt-4o-mini",
				"emulator/gpt-4.1-mini", "gone/kept");
		assertThat(ids.get(0)).as("aliases first").isEqualTo("fast");
		assertThat(list.path("data").path(0).path("object").asString()).isEqualTo("model");
		assertThat(client.models().list().data()).extracting(Model::id).contains("emulator/gpt-4o-mini", "fast");
		assertThat(emulator.stats().route(Route.MODELS).requests()).as("fetched once, then cached")
			.isLessThanOrEqualTo(listed + 1);
	}

	@Test
	void answersOneModelByIdOrA404InOpenAiShape() {
		Model model = client.models().retrieve("emulator/gpt-4o-mini");
		assertThat(model.id()).isEqualTo("emulator/gpt-4o-mini");
		assertThat(model.ownedBy()).isEqualTo("emulator");
		assertThat(client.models().retrieve("fast").ownedBy()).isEqualTo("junction");
		HttpResponse<String> plain = send("GET", "/v1/models/mock/echo-1");
		assertThat(plain.statusCode()).isEqualTo(200);
		assertThat(Json.parse(plain.body()).path("id").asString()).isEqualTo("mock/echo-1");
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> client.models().retrieve("emulator/no-such-model"))
			.satisfies((ex) -> assertThat(ex.body().toString()).contains("model_not_found"));
		JsonNode error = Json.parse(send("GET", "/v1/models/nope").body()).path("error");
		assertThat(error.path("code").asString()).isEqualTo("model_not_found");
		assertThat(error.path("param").asString()).isEqualTo("model");
	}

	private static void assertNotAllowed(String method, String path, String allowed) {
		HttpResponse<String> response = send(method, path);
		assertThat(response.statusCode()).as(method + " " + path).isEqualTo(405);
		assertThat(allow(response)).isEqualTo(allowed);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("code").asString()).isEqualTo("method_not_allowed");
		assertThat(error.path("message").asString()).contains(method);
	}

	/** The Allow header's methods, sorted and comma-separated. */
	private static String allow(HttpResponse<String> response) {
		return String.join(",",
				response.headers()
					.allValues("allow")
					.stream()
					.flatMap((value) -> List.of(value.split(",")).stream())
					.map(String::strip)
					.sorted()
					.toList());
	}

	private static HttpResponse<String> send(String method, String path) {
		return Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build());
	}

}
