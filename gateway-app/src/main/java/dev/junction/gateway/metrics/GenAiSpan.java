package dev.junction.gateway.metrics;

import dev.junction.gateway.provider.Usage;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * Puts the OpenTelemetry GenAI attributes of a model call on the span of the request that
 * made it. They are high-cardinality values of the request's observation: spans get them,
 * the request's metrics do not.
 */
public final class GenAiSpan {

	public static final String OPERATION_NAME = "gen_ai.operation.name";

	public static final String PROVIDER_NAME = "gen_ai.provider.name";

	public static final String REQUEST_MODEL = "gen_ai.request.model";

	public static final String INPUT_TOKENS = "gen_ai.usage.input_tokens";

	public static final String OUTPUT_TOKENS = "gen_ai.usage.output_tokens";

	public static final String ERROR_TYPE = "error.type";

	private GenAiSpan() {
	}

	/**
	 * Tags {@code observation} with a chat call to {@code provider}'s {@code model}.
	 * @param provider the provider's type ({@code openai}, {@code anthropic}, ...)
	 * @param usage the tokens the call used, if known
	 * @param errorType why the call failed, if it did
	 */
	public static void tag(Observation observation, String provider, String model, @Nullable Usage usage,
			@Nullable String errorType) {
		observation.highCardinalityKeyValue(OPERATION_NAME, "chat")
			.highCardinalityKeyValue(PROVIDER_NAME, provider)
			.highCardinalityKeyValue(REQUEST_MODEL, model);
		if (usage != null && usage != Usage.NONE) {
			observation.highCardinalityKeyValue(INPUT_TOKENS, Long.toString(usage.promptTokens()))
				.highCardinalityKeyValue(OUTPUT_TOKENS, Long.toString(usage.completionTokens()));
		}
		if (errorType != null) {
			observation.highCardinalityKeyValue(ERROR_TYPE, errorType);
		}
	}

}
