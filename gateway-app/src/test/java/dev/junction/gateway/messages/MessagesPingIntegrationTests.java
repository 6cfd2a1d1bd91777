package dev.junction.gateway.messages;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ping} events on {@code /v1/messages} streams whose upstream is slow to answer
 * and slow between events (the emulator's latency and chunk delay), passed through to an
 * anthropic provider and translated for an openai one.
 */
class MessagesPingIntegrationTests {

	private static final String KEY = "gw-ping-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer emulator;

	private static RunningGateway gateway;

	private static AnthropicClient client;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.latency-ms", 900, "junction.mock.chunk-delay-ms", 450,
				"junction.mock.stream-chunks", 3, "junction.mock.completion-tokens", 3));
		List<String> properties = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=" + KEY,
				"junction.gateway.cache.enabled=false", "junction.gateway.messages.ping-interval=300ms",
				"junction.gateway.providers.claude.type=anthropic",
				"junction.gateway.providers.claude.base-url=" + emulator.baseUrl(),
				"junction.gateway.providers.claude.keys[0].value=sk-emu",
				"junction.gateway.providers.emulator.type=openai",
				"junction.gateway.providers.emulator.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emulator.keys[0].value=sk-emu"));
		gateway = RunningGateway.start(properties);
		client = gateway.anthropicClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
		emulator.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "claude/claude-haiku-4-5", "emulator/gpt-4o-mini" })
	void pingsWhileTheUpstreamIsSilent(String model) {
		HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/messages"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("x-api-key", KEY)
			.header("anthropic-version", "2023-06-01")
			.POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"max_tokens\":3,\"stream\":true,"
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"Count\"}]}"))
			.build());

		assertThat(response.statusCode()).isEqualTo(200);
		List<String> events = new ArrayList<>();
		for (String line : response.body().split("\n")) {
			if (line.startsWith("event: ")) {
				events.add(line.substring(7));
			}
		}
		// The upstream takes 900 ms to answer: the stream opens with pings, not silence.
		assertThat(events.get(0)).isEqualTo("ping");
		List<String> deltas = new ArrayList<>();
		for (int i = events.indexOf("message_start"); i < events.size(); i++) {
			if (events.get(i).equals("content_block_delta")) {
				deltas.add(String.join(",", events.subList(i, Math.min(i + 2, events.size()))));
			}
		}
		// 450 ms between upstream events: a ping goes out in between.
		assertThat(deltas).hasSizeGreaterThan(1);
		assertThat(deltas.get(0)).isEqualTo("content_block_delta,ping");
		assertThat(events.get(events.size() - 1)).isEqualTo("message_stop");
		assertThat(response.body()).contains("data: {\"type\":\"ping\"}");
	}

	@ParameterizedTest
	@ValueSource(strings = { "claude/claude-haiku-4-5", "emulator/gpt-4o-mini" })
	void theSdkReadsAPingedStreamWhole(String model) {
		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
			.createStreaming(MessageCreateParams.builder().model(model).maxTokens(3).addUserMessage("Count").build())) {
			stream.stream().forEach(accumulator::accumulate);
		}
		assertThat(accumulator.message().content().get(0).asText().text()).isNotBlank();
		assertThat(accumulator.message().usage().outputTokens()).isPositive();
	}

}
