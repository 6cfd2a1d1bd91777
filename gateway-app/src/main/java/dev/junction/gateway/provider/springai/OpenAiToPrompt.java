package dev.junction.gateway.provider.springai;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatParameters;
import dev.junction.gateway.provider.ProviderRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.StructuredOutputChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * Translates an OpenAI chat request into a Spring AI {@link Prompt}: system (and
 * developer), user, assistant (with tool calls) and tool messages; model, temperature,
 * top_p, max_tokens, stop and a JSON schema for the answer; tools as definitions only (a
 * chat model does not run tools itself), so that tool calls go back to the client. What
 * the model takes beyond that (tool choice, headers) is the {@link ProviderOptions}'
 * business. A parameter the model cannot honour ({@code n}, {@code logprobs}) is refused
 * with a 400 naming it.
 */
final class OpenAiToPrompt {

	private OpenAiToPrompt() {
	}

	/**
	 * The prompt for a request. Options start from the model's own defaults
	 * ({@code defaults.mutate()}), so each provider keeps its own options type.
	 */
	static Prompt translate(String provider, ProviderRequest request, ChatOptions defaults, int defaultMaxTokens,
			ProviderOptions providerOptions, ObjectMapper mapper) {
		JsonNode body = request.chat().body();
		ChatParameters.requireSingleChoice(body, provider);
		ChatParameters.requireNoLogprobs(body, provider);
		List<Message> messages = new ArrayList<>();
		Map<String, String> toolNames = new HashMap<>();
		JsonNode input = body.path("messages");
		for (int i = 0; i < input.size(); i++) {
			messages.add(message(input.get(i), i, toolNames, mapper));
		}
		ChatOptions.Builder<?> options = defaults.mutate().model(request.model());
		Integer maxTokens = request.chat().maxTokens();
		options.maxTokens((maxTokens != null) ? maxTokens : defaultMaxTokens);
		Double temperature = number(body, "temperature");
		if (temperature != null) {
			options.temperature(temperature);
		}
		Double topP = number(body, "top_p");
		if (topP != null) {
			options.topP(topP);
		}
		JsonNode stop = body.path("stop");
		if (stop.isString()) {
			options.stopSequences(List.of(stop.stringValue()));
		}
		else if (stop.isArray()) {
			List<String> sequences = new ArrayList<>();
			for (JsonNode sequence : stop) {
				if (!sequence.isString()) {
					throw InvalidRequestException.invalidField("stop",
							"'stop' must be a string or an array of strings.");
				}
				sequences.add(sequence.stringValue());
			}
			options.stopSequences(sequences);
		}
		String schema = ChatParameters.jsonSchema(body, provider,
				options instanceof StructuredOutputChatOptions.Builder<?>);
		if (schema != null) {
			((StructuredOutputChatOptions.Builder<?>) options).outputSchema(schema);
		}
		List<ToolCallback> tools = new ArrayList<>();
		if (!body.path("tools").isMissingNode() && !body.path("tools").isNull() && !body.path("tools").isArray()) {
			throw InvalidRequestException.invalidField("tools", "'tools' must be an array.");
		}
		int index = 0;
		for (JsonNode tool : body.path("tools")) {
			tools.add(DefinitionOnlyToolCallback.of(tool, index++));
		}
		if (!tools.isEmpty()) {
			if (!(options instanceof ToolCallingChatOptions.Builder<?> toolOptions)) {
				throw InvalidRequestException.unsupported("tools", "Provider '" + provider + "' does not take tools.");
			}
			toolOptions.toolCallbacks(tools);
		}
		providerOptions.apply(provider, request, ChatParameters.toolChoice(body), options);
		return new Prompt(messages, options.build());
	}

	/** A numeric parameter, if set; a 400 naming it if it is not a finite number. */
	private static @Nullable Double number(JsonNode body, String name) {
		JsonNode value = body.get(name);
		if (value == null || value.isNull()) {
			return null;
		}
		if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
			throw InvalidRequestException.invalidField(name, "'" + name + "' must be a number.");
		}
		return value.asDouble();
	}

	private static Message message(JsonNode message, int index, Map<String, String> toolNames, ObjectMapper mapper) {
		String role = message.path("role").asString("");
		return switch (role) {
			case "system", "developer" -> new SystemMessage(text(message.path("content")));
			case "user" -> new UserMessage(text(message.path("content")));
			case "assistant" -> assistant(message, index, toolNames, mapper);
			case "tool" -> {
				String id = message.path("tool_call_id").asString("");
				yield ToolResponseMessage.builder()
					.responses(List.of(new ToolResponseMessage.ToolResponse(id, toolNames.getOrDefault(id, ""),
							text(message.path("content")))))
					.build();
			}
			default -> throw InvalidRequestException.invalidField("messages[" + index + "].role",
					"Unsupported role '" + role + "': use system, developer, user, assistant or tool.");
		};
	}

	private static AssistantMessage assistant(JsonNode message, int index, Map<String, String> toolNames,
			ObjectMapper mapper) {
		List<AssistantMessage.ToolCall> calls = new ArrayList<>();
		int position = 0;
		for (JsonNode call : message.path("tool_calls")) {
			String id = call.path("id").asString("");
			String name = call.path("function").path("name").asString("");
			toolNames.put(id, name);
			String field = "messages[" + index + "].tool_calls[" + position++ + "].function.arguments";
			calls.add(new AssistantMessage.ToolCall(id, "function", name,
					arguments(call.path("function").path("arguments"), field, mapper)));
		}
		return AssistantMessage.builder().content(text(message.path("content"))).toolCalls(calls).build();
	}

	/**
	 * A tool call's arguments as the provider takes them: a JSON object ({@code {}} when
	 * none are given).
	 */
	private static String arguments(JsonNode arguments, String field, ObjectMapper mapper) {
		if (arguments.isMissingNode() || arguments.isNull()
				|| (arguments.isString() && arguments.stringValue().isBlank())) {
			return "{}";
		}
		boolean object;
		try {
			object = arguments.isString() && mapper.readTree(arguments.stringValue()).isObject();
		}
		catch (JacksonException ex) {
			object = false;
		}
		if (!object) {
			throw InvalidRequestException.invalidField(field,
					"'" + field + "' must be a string holding a JSON object for this model.");
		}
		return arguments.stringValue();
	}

	/** A message's text: a string, or the text parts of a content array. */
	private static String text(JsonNode content) {
		if (content.isString()) {
			return content.stringValue();
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode part : content) {
			if ("text".equals(part.path("type").asString(""))) {
				if (!text.isEmpty()) {
					text.append('\n');
				}
				text.append(part.path("text").asString(""));
			}
		}
		return text.toString();
	}

}
