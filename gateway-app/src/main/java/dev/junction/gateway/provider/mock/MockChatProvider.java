package dev.junction.gateway.provider.mock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatParameters;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.Usage;
import dev.junction.openai.ChatCompletion;
import dev.junction.openai.ChatCompletionChunk;
import dev.junction.openai.CompletionUsage;
import dev.junction.openai.ToolCall;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * An in-process provider with deterministic answers and no network, so that the gateway
 * answers out of the box. The reply restates the last user message; with tools offered
 * (and {@code tool_choice} not {@code none}) it calls the tool {@code tool_choice} names,
 * or the first one. It refuses what it cannot honour: {@code n} above 1, log
 * probabilities and JSON response formats.
 */
public final class MockChatProvider implements ChatProvider {

	private static final int DEFAULT_COMPLETION_TOKENS = 16;

	private static final String SYSTEM_FINGERPRINT = "fp_junction_mock";

	private final String name;

	private final ObjectMapper mapper;

	private final List<String> models;

	private final AtomicLong ids = new AtomicLong();

	public MockChatProvider(String name, List<String> models, ObjectMapper mapper) {
		this.name = name;
		this.models = models.isEmpty() ? List.of("echo-1") : List.copyOf(models);
		this.mapper = mapper;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public ProviderType type() {
		return ProviderType.MOCK;
	}

	@Override
	public List<String> models() {
		return this.models;
	}

	@Override
	public Mono<ChatResult> complete(ProviderRequest request) {
		return Mono.fromSupplier(() -> {
			Answer answer = answer(request);
			ChatCompletion.Message message = (answer.toolName != null)
					? ChatCompletion.Message.assistant(null,
							List.of(ToolCall.of(answer.callId(), answer.toolName, answer.arguments(this.mapper))))
					: ChatCompletion.Message.assistant(String.join(" ", answer.words), null);
			ChatCompletion completion = new ChatCompletion(answer.id, System.currentTimeMillis() / 1000,
					request.model(), List.of(new ChatCompletion.Choice(0, message, answer.finishReason())),
					CompletionUsage.of(answer.usage.promptTokens(), answer.usage.completionTokens()),
					SYSTEM_FINGERPRINT);
			return new ChatResult(this.mapper.writeValueAsBytes(completion), answer.usage, answer.finishReason(),
					request.model(), completion);
		});
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		return Flux.defer(() -> {
			Answer answer = answer(request);
			ChatCompletionChunk.Head head = new ChatCompletionChunk.Head(answer.id, System.currentTimeMillis() / 1000,
					request.model(), null, SYSTEM_FINGERPRINT, false);
			List<ChatChunk> chunks = new ArrayList<>();
			chunks.add(chunk(head, ChatCompletionChunk.Delta.START, null));
			if (answer.toolName != null) {
				chunks.add(chunk(head,
						ChatCompletionChunk.Delta.toolCalls(List
							.of(ToolCall.first(0, answer.callId(), answer.toolName, answer.arguments(this.mapper)))),
						null));
			}
			else {
				for (int i = 0; i < answer.words.size(); i++) {
					chunks.add(chunk(head,
							ChatCompletionChunk.Delta.content(((i != 0) ? " " : "") + answer.words.get(i)), null));
				}
			}
			chunks.add(chunk(head, ChatCompletionChunk.Delta.END, answer.finishReason()));
			ChatCompletionChunk usage = ChatCompletionChunk.usage(head,
					CompletionUsage.of(answer.usage.promptTokens(), answer.usage.completionTokens()));
			chunks.add(new ChatChunk(this.mapper.writeValueAsString(usage), answer.usage, true));
			return Flux.fromIterable(chunks);
		});
	}

	private ChatChunk chunk(ChatCompletionChunk.Head head, ChatCompletionChunk.Delta delta,
			@Nullable String finishReason) {
		return ChatChunk.of(this.mapper
			.writeValueAsString(ChatCompletionChunk.of(head, new ChatCompletionChunk.Choice(0, delta, finishReason))));
	}

	private Answer answer(ProviderRequest request) {
		JsonNode body = request.chat().body();
		ChatParameters.requireSingleChoice(body, this.name);
		ChatParameters.requireNoLogprobs(body, this.name);
		ChatParameters.jsonSchema(body, this.name, false);
		ChatParameters.ToolChoice choice = ChatParameters.toolChoice(body);
		String prompt = lastUserText(body.path("messages"));
		int limit = (request.chat().maxTokens() != null) ? request.chat().maxTokens() : DEFAULT_COMPLETION_TOKENS;
		List<String> words = new ArrayList<>(List.of("Mock", "answer", "to:"));
		for (String word : prompt.trim().split("\\s+")) {
			if (!word.isEmpty()) {
				words.add(word);
			}
		}
		boolean truncated = words.size() > limit;
		if (truncated) {
			words = new ArrayList<>(words.subList(0, limit));
		}
		String toolName = null;
		JsonNode tools = body.path("tools");
		if (tools.isArray() && !tools.isEmpty() && choice.mode() != ChatParameters.ToolChoice.Mode.NONE) {
			toolName = (choice.name() != null) ? choice.name()
					: tools.get(0).path("function").path("name").asString("tool");
		}
		long promptTokens = estimateTokens(body.path("messages").toString());
		long completionTokens = (toolName != null) ? 8 : words.size();
		return new Answer("chatcmpl-mock-" + this.ids.incrementAndGet(), words, truncated, toolName, prompt,
				new Usage(promptTokens, completionTokens));
	}

	private static String lastUserText(JsonNode messages) {
		for (int i = messages.size() - 1; i >= 0; i--) {
			JsonNode message = messages.get(i);
			if ("user".equals(message.path("role").asString(""))) {
				JsonNode content = message.path("content");
				if (content.isString()) {
					return content.stringValue();
				}
				StringBuilder text = new StringBuilder();
				for (JsonNode part : content) {
					if ("text".equals(part.path("type").asString(""))) {
						text.append(part.path("text").asString("")).append(' ');
					}
				}
				return text.toString();
			}
		}
		return "";
	}

	private static long estimateTokens(String text) {
		return Math.max(1, text.getBytes(StandardCharsets.UTF_8).length / 4);
	}

	private record Answer(String id, List<String> words, boolean truncated, String toolName, String prompt,
			Usage usage) {

		String callId() {
			return "call_" + this.id.substring(this.id.lastIndexOf('-') + 1);
		}

		String arguments(ObjectMapper mapper) {
			return mapper.createObjectNode().put("input", this.prompt).toString();
		}

		String finishReason() {
			return (this.toolName != null) ? "tool_calls" : this.truncated ? "length" : "stop";
		}

	}

}
