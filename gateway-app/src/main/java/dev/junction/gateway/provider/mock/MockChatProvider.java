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
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-process provider with deterministic answers and no network, so that the gateway
 * answers out of the box. The reply restates the last user message; with tools offered
 * (and {@code tool_choice} not {@code none}) it calls the tool {@code tool_choice} names,
 * or the first one. It refuses what it cannot honour: {@code n} above 1, log
 * probabilities and JSON response formats.
 */
public final class MockChatProvider implements ChatProvider {

	private static final int DEFAULT_COMPLETION_TOKENS = 16;

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
			ObjectNode completion = envelope("chat.completion", request.model(), answer.id);
			ObjectNode choice = completion.putArray("choices").addObject();
			choice.put("index", 0);
			ObjectNode message = choice.putObject("message");
			message.put("role", "assistant");
			if (answer.toolName != null) {
				message.putNull("content");
				toolCall(message.putArray("tool_calls").addObject(), answer, true);
			}
			else {
				message.put("content", String.join(" ", answer.words));
			}
			message.putNull("refusal");
			choice.putNull("logprobs");
			choice.put("finish_reason", answer.finishReason());
			usage(completion, answer.usage);
			return new ChatResult(this.mapper.writeValueAsBytes(completion), answer.usage, answer.finishReason(),
					request.model());
		});
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		return Flux.defer(() -> {
			Answer answer = answer(request);
			List<ChatChunk> chunks = new ArrayList<>();
			ObjectNode first = chunk(request.model(), answer.id);
			ObjectNode firstChoice = first.withArray("choices").addObject().put("index", 0);
			firstChoice.putObject("delta").put("role", "assistant").put("content", "");
			firstChoice.putNull("finish_reason");
			chunks.add(ChatChunk.of(first.toString()));
			if (answer.toolName != null) {
				ObjectNode call = chunk(request.model(), answer.id);
				ObjectNode callChoice = call.withArray("choices").addObject().put("index", 0);
				toolCall(callChoice.putObject("delta").putArray("tool_calls").addObject().put("index", 0), answer,
						true);
				callChoice.putNull("finish_reason");
				chunks.add(ChatChunk.of(call.toString()));
			}
			else {
				for (int i = 0; i < answer.words.size(); i++) {
					ObjectNode piece = chunk(request.model(), answer.id);
					ObjectNode choice = piece.withArray("choices").addObject().put("index", 0);
					choice.putObject("delta").put("content", ((i != 0) ? " " : "") + answer.words.get(i));
					choice.putNull("finish_reason");
					chunks.add(ChatChunk.of(piece.toString()));
				}
			}
			ObjectNode last = chunk(request.model(), answer.id);
			ObjectNode lastChoice = last.withArray("choices").addObject().put("index", 0);
			lastChoice.putObject("delta");
			lastChoice.put("finish_reason", answer.finishReason());
			chunks.add(ChatChunk.of(last.toString()));
			ObjectNode usage = chunk(request.model(), answer.id);
			usage.putArray("choices");
			usage(usage, answer.usage);
			chunks.add(new ChatChunk(usage.toString(), answer.usage, true));
			return Flux.fromIterable(chunks);
		});
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

	private ObjectNode envelope(String object, String model, String id) {
		ObjectNode node = this.mapper.createObjectNode();
		node.put("id", id);
		node.put("object", object);
		node.put("created", System.currentTimeMillis() / 1000);
		node.put("model", model);
		node.put("system_fingerprint", "fp_junction_mock");
		return node;
	}

	private ObjectNode chunk(String model, String id) {
		return envelope("chat.completion.chunk", model, id);
	}

	private void toolCall(ObjectNode call, Answer answer, boolean withId) {
		if (withId) {
			call.put("id", "call_" + answer.id.substring(answer.id.lastIndexOf('-') + 1));
			call.put("type", "function");
		}
		ObjectNode function = call.putObject("function");
		function.put("name", answer.toolName);
		function.put("arguments", this.mapper.createObjectNode().put("input", answer.prompt).toString());
	}

	private static void usage(ObjectNode node, Usage usage) {
		ObjectNode out = node.putObject("usage");
		out.put("prompt_tokens", usage.promptTokens());
		out.put("completion_tokens", usage.completionTokens());
		out.put("total_tokens", usage.totalTokens());
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

		String finishReason() {
			return (this.toolName != null) ? "tool_calls" : this.truncated ? "length" : "stop";
		}

	}

}
