package dev.junction.gateway.rpc;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The JSON-RPC ({@code /rpc}) and tRPC ({@code /trpc}) endpoints.
 *
 * @param defaultModel the model {@code ai.generateText} uses when the call names none
 * @param systemPrompts named system prompts {@code ai.generateText} accepts as {@code systemPrompt};
 * {@code default} is built in
 * @param defaultSimulatedDelay the delay of {@code test.simulateAI} when the call sets none
 * @param maxSimulatedDelay the longest delay {@code test.simulateAI} accepts
 * @param maxBatchSize the most calls one JSON-RPC or tRPC batch may hold
 */
@ConfigurationProperties(RpcProperties.PREFIX)
public record RpcProperties(@DefaultValue("mock/echo-1") String defaultModel,
		@Nullable Map<String, String> systemPrompts, @DefaultValue("1500ms") Duration defaultSimulatedDelay,
		@DefaultValue("30s") Duration maxSimulatedDelay, @DefaultValue("1000") int maxBatchSize) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.rpc";

	/** The built-in system prompt called {@code default}. */
	public static final String DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant.";

	public RpcProperties {
		systemPrompts = (systemPrompts != null) ? systemPrompts : Map.of();
		if (maxBatchSize < 1) {
			throw new IllegalStateException(PREFIX + ".max-batch-size must be at least 1");
		}
	}

	/** The system prompt a preset name stands for; any other text is the prompt itself. */
	public String systemPrompt(String nameOrPrompt) {
		String preset = this.systemPrompts.get(nameOrPrompt);
		if (preset != null) {
			return preset;
		}
		return "default".equals(nameOrPrompt) ? DEFAULT_SYSTEM_PROMPT : nameOrPrompt;
	}

}
