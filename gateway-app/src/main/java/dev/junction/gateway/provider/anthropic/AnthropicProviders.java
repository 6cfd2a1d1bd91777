package dev.junction.gateway.provider.anthropic;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.anthropic.core.JsonValue;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicRetryableException;
import com.anthropic.errors.AnthropicServiceException;
import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.UpstreamFailures;
import dev.junction.gateway.provider.springai.SpringAiChatProvider;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

import org.springframework.ai.anthropic.AnthropicChatModel;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.util.StringUtils;

/**
 * Anthropic providers: chat completions through one Spring AI {@link AnthropicChatModel}
 * per configured key (the model holds its key) behind the generic Spring AI adapter, and
 * the Messages API passed through natively. The SDK's own retries are off: retrying is
 * the gateway's decision.
 */
public final class AnthropicProviders {

	static final int DEFAULT_MAX_TOKENS = 1024;

	static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

	private AnthropicProviders() {
	}

	/**
	 * @param name the provider's configured name
	 * @param baseUrl Anthropic's base URL, or null for the default
	 * @param keys the provider's API keys, at least one
	 * @param defaultMaxTokens {@code max_tokens} for requests without one, or null for
	 * the default
	 * @param timeout a call's one timeout
	 * @param connectTimeout the longest a TCP connect of the Messages passthrough may
	 * take
	 * @param maxConnections pooled connections of the Messages passthrough
	 * @param models the configured models
	 * @param mapper JSON
	 * @param embeddingModel the Spring AI model that serves the provider's embeddings, or
	 * null (Spring AI has no Anthropic embedding model)
	 */
	public static ChatProvider create(String name, @Nullable String baseUrl, List<ProviderKey> keys,
			@Nullable Integer defaultMaxTokens, Duration timeout, Duration connectTimeout, int maxConnections,
			List<String> models, ObjectMapper mapper, @Nullable EmbeddingModel embeddingModel) {
		int maxTokens = (defaultMaxTokens != null) ? defaultMaxTokens : DEFAULT_MAX_TOKENS;
		Map<String, ChatModel> byKey = new LinkedHashMap<>();
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("Provider '" + name + "' needs at least one key");
		}
		for (ProviderKey key : keys) {
			byKey.put(key.value(), model(baseUrl, key.value(), maxTokens, timeout));
		}
		ChatModel first = byKey.values().iterator().next();
		SpringAiChatProvider chat = new SpringAiChatProvider(name, ProviderType.ANTHROPIC,
				(apiKey) -> (apiKey != null) ? byKey.getOrDefault(apiKey, first) : first, maxTokens, timeout, models,
				mapper, (error, apiKey) -> translate(name, timeout, error, apiKey), new AnthropicOptions(),
				embeddingModel);
		return new AnthropicProvider(chat,
				new AnthropicMessagesClient(name, StringUtils.hasText(baseUrl) ? baseUrl : DEFAULT_BASE_URL, timeout,
						connectTimeout, maxConnections, mapper));
	}

	private static AnthropicChatModel model(String baseUrl, String apiKey, int maxTokens, Duration timeout) {
		AnthropicChatOptions.Builder options = AnthropicChatOptions.builder()
			.apiKey(apiKey)
			.maxTokens(maxTokens)
			.timeout(timeout)
			.maxRetries(0);
		if (StringUtils.hasText(baseUrl)) {
			options.baseUrl(baseUrl);
		}
		return AnthropicChatModel.builder()
			.options(options.build())
			.observationRegistry(ObservationRegistry.NOOP)
			.build();
	}

	/**
	 * Anthropic SDK failures as gateway failures. Only what happened on the way to or
	 * from Anthropic is the provider's failure: an error status, a connection that failed
	 * or timed out, an answer that could not be read. Anything else was raised while the
	 * request was being built, before anything was sent: the request cannot be sent as it
	 * is (400). The call's key is cut out of whatever the upstream quotes.
	 */
	static GatewayException translate(String provider, Duration timeout, Throwable error, @Nullable String apiKey) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof AnthropicServiceException service) {
				List<String> retryAfter = service.headers().values("retry-after");
				Duration wait = retryAfter.isEmpty() ? null : RetryAfter.parse(retryAfter.get(0));
				return UpstreamException.status(provider, service.statusCode(),
						UpstreamFailures.redact(service.errorType().map(Object::toString).orElse(null), apiKey), null,
						UpstreamFailures.redact(message(service), apiKey), wait);
			}
			if (cause instanceof ConnectException) {
				return UpstreamException.connection(provider, "connection refused", error);
			}
			if (cause instanceof InterruptedIOException) {
				return UpstreamException.timeout(provider, timeout);
			}
			if (cause instanceof AnthropicInvalidDataException) {
				return UpstreamException.invalidResponse(provider, "the response could not be read");
			}
			if (cause instanceof IOException || cause instanceof AnthropicIoException
					|| cause instanceof AnthropicRetryableException) {
				return UpstreamException.connection(provider, String.valueOf(cause.getMessage()), error);
			}
		}
		return InvalidRequestException.invalidField(null, "Provider '" + provider
				+ "' cannot take this request as sent: check its messages, tools and parameters.");
	}

	private static String message(AnthropicServiceException error) {
		Optional<JsonValue> message = field(error.body(), "error").flatMap((body) -> field(body, "message"));
		Optional<?> text = message.isPresent() ? message.get().asString() : Optional.empty();
		return text.isPresent() ? String.valueOf(text.get()) : String.valueOf(error.getMessage());
	}

	@SuppressWarnings("unchecked")
	private static Optional<JsonValue> field(JsonValue value, String name) {
		return value.asObject().map((object) -> ((Map<String, JsonValue>) object).get(name));
	}

}
