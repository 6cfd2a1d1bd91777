package dev.junction.gateway.provider.anthropic;

import java.util.HashMap;
import java.util.Map;

import com.anthropic.models.messages.ToolChoice;
import com.anthropic.models.messages.ToolChoiceAny;
import com.anthropic.models.messages.ToolChoiceAuto;
import com.anthropic.models.messages.ToolChoiceNone;
import com.anthropic.models.messages.ToolChoiceTool;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatParameters;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.springai.ProviderOptions;
import dev.junction.gateway.requestid.RequestId;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.prompt.ChatOptions;

/**
 * What Anthropic's Messages API takes beyond Spring AI's portable options: OpenAI's
 * {@code tool_choice} (auto, none, required as {@code any}, a named function as
 * {@code tool}) and {@code parallel_tool_calls}, and the request id as a header. A
 * request with nothing but system messages is refused: Anthropic needs a user or
 * assistant turn. A caller's own key goes as this call's {@code x-api-key}, which the SDK
 * sends in place of the model's configured key.
 */
final class AnthropicOptions implements ProviderOptions {

	private static final String API_KEY_HEADER = "x-api-key";

	@Override
	public void apply(String provider, ProviderRequest request, ChatParameters.ToolChoice toolChoice,
			ChatOptions.Builder<?> options) {
		JsonNode body = request.chat().body();
		requireATurn(body.path("messages"), provider);
		if (!(options instanceof AnthropicChatOptions.Builder anthropic)) {
			throw new IllegalStateException("provider '" + provider + "' is not an Anthropic model");
		}
		if (!body.path("tools").isEmpty()) {
			anthropic.toolChoice(switch (toolChoice.mode()) {
				case AUTO -> ToolChoice.ofAuto(ToolChoiceAuto.builder().build());
				case NONE -> ToolChoice.ofNone(ToolChoiceNone.builder().build());
				case REQUIRED -> ToolChoice.ofAny(ToolChoiceAny.builder().build());
				case NAMED -> ToolChoice.ofTool(ToolChoiceTool.builder().name(toolChoice.name()).build());
			});
			JsonNode parallel = body.path("parallel_tool_calls");
			if (parallel.isBoolean()) {
				anthropic.disableParallelToolUse(!parallel.booleanValue());
			}
		}
		String callerKey = request.callerKey() ? request.apiKey() : null;
		Map<String, String> headers = new HashMap<>(request.trace().headers());
		headers.put(RequestId.HEADER, request.requestId());
		if (callerKey != null) {
			headers.put(API_KEY_HEADER, callerKey);
		}
		anthropic.httpHeaders(headers);
	}

	private static void requireATurn(JsonNode messages, String provider) {
		for (JsonNode message : messages) {
			String role = message.path("role").asString("");
			if (!role.equals("system") && !role.equals("developer")) {
				return;
			}
		}
		throw InvalidRequestException.invalidField("messages",
				"Provider '" + provider + "' needs at least one user or assistant message besides system messages.");
	}

}
