package dev.junction.gateway.provider.anthropic;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.NativeRequest;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Messages API passed through natively to an {@code anthropic} provider with the
 * caller's own key: the emulator, which accepts only that key, receives it as
 * {@code x-api-key} in place of the pool's, for answers and for streams, and the pool's
 * key is used again by the next call without one.
 */
class AnthropicMessagesCallerKeyIntegrationTests {

	private static final String POOL_KEY = "sk-pool-messages-key-pool";

	private static final String CALLER_KEY = "sk-caller-messages-key-mine";

	private static final ObjectMapper mapper = JsonMapper.builder().build();

	private static MockProviderServer emulator;

	private static ChatProvider provider;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", CALLER_KEY));
		provider = AnthropicProviders.create("claude", emulator.baseUrl(), List.of(new ProviderKey(POOL_KEY, 1, null)),
				null, Duration.ofSeconds(10), Duration.ofSeconds(5), 4, List.of("claude-haiku-4-5"), mapper, null);
	}

	@AfterAll
	static void stop() {
		emulator.close();
	}

	@BeforeEach
	void resetStats() {
		emulator.resetStats();
	}

	@Test
	void anAnswerIsAskedForWithTheCallersKey() {
		ChatResult result = provider.complete(request(false, CALLER_KEY, true)).block(Duration.ofSeconds(10));
		assertThat(result.api()).isEqualTo(ClientApi.ANTHROPIC_MESSAGES);
		JsonNode message = mapper.readTree(result.body());
		assertThat(message.path("type").asString()).as(message.toString()).isEqualTo("message");
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(CALLER_KEY))).isEqualTo(1);
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(POOL_KEY))).isZero();
	}

	@Test
	void aStreamIsAskedForWithTheCallersKey() {
		List<ChatChunk> chunks = provider.stream(request(true, CALLER_KEY, true))
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(chunks).last().extracting(ChatChunk::event).isEqualTo("message_stop");
		assertThat(emulator.stats().route(Route.MESSAGES).streams()).isEqualTo(1);
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(CALLER_KEY))).isEqualTo(1);
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(POOL_KEY))).isZero();
	}

	@Test
	void theNextCallWithoutTheCallersKeyUsesThePoolsAgain() {
		provider.complete(request(false, CALLER_KEY, true)).block(Duration.ofSeconds(10));
		Throwable refused = provider.complete(request(false, POOL_KEY, false))
			.then(Mono.<Throwable>empty())
			.onErrorResume(Mono::just)
			.block(Duration.ofSeconds(10));
		assertThat(refused).as("the emulator accepts only the caller's key").isNotNull();
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(CALLER_KEY))).isEqualTo(1);
		assertThat(emulator.stats().requestsWithKeySuffix(suffix(POOL_KEY))).isEqualTo(1);
	}

	/**
	 * A Messages request as a client sends it to {@code /v1/messages}, and the call made
	 * of it.
	 */
	private static ProviderRequest request(boolean stream, String apiKey, boolean callerKey) {
		ObjectNode body = mapper.createObjectNode();
		body.put("model", "claude/claude-haiku-4-5");
		body.put("max_tokens", 16);
		if (stream) {
			body.put("stream", true);
		}
		body.putArray("messages").addObject().put("role", "user").put("content", "Hello");
		NativeRequest original = new NativeRequest(ClientApi.ANTHROPIC_MESSAGES, body,
				Map.of("anthropic-version", "2023-06-01"));
		return new ProviderRequest(ChatRequest.nativeOnly("claude/claude-haiku-4-5", stream, original, null),
				"claude-haiku-4-5", apiKey, "request-1", ClientApi.ANTHROPIC_MESSAGES, callerKey);
	}

	private static String suffix(String key) {
		return key.substring(key.length() - 4);
	}

}
