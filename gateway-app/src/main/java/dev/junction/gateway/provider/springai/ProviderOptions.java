package dev.junction.gateway.provider.springai;

import java.util.List;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatParameters.ToolChoice;
import dev.junction.gateway.provider.ProviderRequest;

import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * What one kind of Spring AI model takes beyond Spring AI's portable options (tool
 * choice, per-request headers), applied to each request's options; it refuses with a 400
 * what the model cannot be asked.
 */
@FunctionalInterface
public interface ProviderOptions {

	/**
	 * Applies the request's options to the builder, which already holds the portable ones
	 * and the tools.
	 * @param provider the provider's name, for error messages
	 * @param request the call
	 * @param toolChoice the request's tool choice, checked against its tools
	 * @param options the options being built
	 */
	void apply(String provider, ProviderRequest request, ToolChoice toolChoice, ChatOptions.Builder<?> options);

	/**
	 * Portable options only: the model decides whether to call a tool, or sees no tools.
	 */
	ProviderOptions PORTABLE = (provider, request, toolChoice, options) -> {
		switch (toolChoice.mode()) {
			case NONE -> {
				if (options instanceof ToolCallingChatOptions.Builder<?> tools) {
					tools.toolCallbacks(List.of());
				}
			}
			case AUTO -> {
			}
			default -> throw InvalidRequestException.unsupported("tool_choice",
					"Provider '" + provider + "' cannot be made to call a tool: use tool_choice auto or none.");
		}
	};

}
