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
 * @param systemPrompts named system prompts {@code ai.generateText} accepts as
 * {@code systemPrompt}; {@code default} is built in
 * @param defaultSimulatedDelay the delay of {@code test.simulateAI} when the call sets
 * none
 * @param maxSimulatedDelay the longest delay {@code test.simulateAI} accepts
 * @param maxBatchSize the most calls one JSON-RPC or tRPC batch may hold
 * @param trpcTransformer how tRPC inputs and outputs are encoded: {@code none} (plain
 * JSON) or {@code superjson}, as the tRPC server's {@code transformer} that clients are
 * built for
 * @param byok whether {@code ai.generateText} takes the caller's own provider key
 * ({@code apiKey}) for providers that can send it
 */
@ConfigurationProperties(RpcProperties.PREFIX)
public record RpcProperties(@DefaultValue("mock/echo-1") String defaultModel,
		@Nullable Map<String, String> systemPrompts, @DefaultValue("1500ms") Duration defaultSimulatedDelay,
		@DefaultValue("30s") Duration maxSimulatedDelay, @DefaultValue("1000") int maxBatchSize,
		@DefaultValue("none") String trpcTransformer, @DefaultValue("true") boolean byok) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.rpc";

	/** The built-in system prompt called {@code default}. */
	public static final String DEFAULT_SYSTEM_PROMPT = "You are a helpful AI assistant.";

	public RpcProperties {
		systemPrompts = (systemPrompts != null) ? systemPrompts : Map.of();
		if (maxBatchSize < 1) {
			throw new IllegalStateException(PREFIX + ".max-batch-size must be at least 1");
		}
		TrpcTransformer.named(trpcTransformer);
	}

	/** Built-in presets, by lower-case name. */
	private static final Map<String, String> PRESETS = Map.of("default", DEFAULT_SYSTEM_PROMPT, "code_review",
			"You review code: point out bugs, risky constructs and unclear parts, and suggest concrete fixes.",
			"security_review",
			"You review code for security: find vulnerabilities such as injection, broken authentication or authorization, unsafe input handling and leaked secrets, and say how to fix each.",
			"architecture_review",
			"You review software design: judge structure, boundaries, coupling and how the design will scale and evolve, and propose improvements.",
			"performance_review",
			"You review code for performance: find slow algorithms, wasted allocations, blocking calls and other bottlenecks, and propose faster alternatives.",
			"accessibility_review",
			"You review user interfaces for accessibility against WCAG: find barriers for people using assistive technology and propose fixes.",
			"documentation_review",
			"You review documentation and comments: find what is missing, wrong or unclear, and propose better wording.");

	/**
	 * The system prompt a preset name stands for (a configured one, else a built-in one,
	 * names compared without case); any other text is the prompt itself.
	 */
	public String systemPrompt(String nameOrPrompt) {
		String preset = this.systemPrompts.get(nameOrPrompt);
		if (preset != null) {
			return preset;
		}
		return PRESETS.getOrDefault(nameOrPrompt.toLowerCase(java.util.Locale.ROOT), nameOrPrompt);
	}

}
