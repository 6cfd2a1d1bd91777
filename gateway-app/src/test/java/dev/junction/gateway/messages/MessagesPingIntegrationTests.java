package dev.junction.gateway.messages;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.junction.gateway.support.EmulatedGateway;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.Sse;
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

	@RegisterExtension
	static final EmulatedGateway gateway = EmulatedGateway
		.emulator(Map.of("junction.mock.latency-ms", 900, "junction.mock.chunk-delay-ms", 450,
				"junction.mock.stream-chunks", 3, "junction.mock.completion-tokens", 3))
		.key(KEY)
		.properties("junction.gateway.cache.enabled=false", "junction.gateway.messages.ping-interval=300ms")
		.anthropic("claude", "sk-emu")
		.openAi("emulator", "sk-emu");

	@ParameterizedTest
	@ValueSource(strings = { "claude/claude-haiku-4-5", "emulator/gpt-4o-mini" })
	void pingsWhileTheUpstreamIsSilent(String model) {
		String body = "{\"model\":\"" + model + "\",\"max_tokens\":3,\"stream\":true,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"Count\"}]}";
		HttpResponse<String> response = Http.postWithHeaders(gateway.baseUrl() + "/v1/messages",
				Map.of("x-api-key", KEY, "anthropic-version", "2023-06-01"), body);

		assertThat(response.statusCode()).isEqualTo(200);
		List<String> events = Sse.events(response.body());
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
		try (StreamResponse<RawMessageStreamEvent> stream = gateway.anthropicClient(KEY)
			.messages()
			.createStreaming(MessageCreateParams.builder().model(model).maxTokens(3).addUserMessage("Count").build())) {
			stream.stream().forEach(accumulator::accumulate);
		}
		assertThat(accumulator.message().content().get(0).asText().text()).isNotBlank();
		assertThat(accumulator.message().usage().outputTokens()).isPositive();
	}

}
