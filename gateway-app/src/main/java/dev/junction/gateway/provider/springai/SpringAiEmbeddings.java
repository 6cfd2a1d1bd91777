package dev.junction.gateway.provider.springai;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.Usage;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingOptions;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * OpenAI's {@code POST /v1/embeddings} served by a Spring AI {@link EmbeddingModel}: text
 * inputs, {@code dimensions} and the model go to the model; its vectors come back as an
 * OpenAI {@code list} of {@code embedding}s (floats, or base64 little-endian float32 as
 * OpenAI encodes them), with the input tokens it reports as usage. The blocking call runs
 * on the bounded elastic scheduler. The model may be any vendor's, so its failures are
 * read only as far as the JDK knows them: no connection, a timeout, or else a failed call
 * (502).
 */
final class SpringAiEmbeddings {

	private final String provider;

	private final EmbeddingModel model;

	private final Duration timeout;

	private final ObjectMapper mapper;

	SpringAiEmbeddings(String provider, EmbeddingModel model, Duration timeout, ObjectMapper mapper) {
		this.provider = provider;
		this.model = model;
		this.timeout = timeout;
		this.mapper = mapper;
	}

	Mono<ChatResult> embed(ProviderRequest request) {
		return Mono.fromSupplier(() -> embeddingRequest(request))
			.flatMap((embedding) -> Mono.fromCallable(() -> this.model.call(embedding))
				.subscribeOn(Schedulers.boundedElastic())
				.timeout(this.timeout))
			.map((response) -> result(request, response))
			.onErrorMap((error) -> translate(error));
	}

	private Throwable translate(Throwable error) {
		if (error instanceof GatewayException) {
			return error;
		}
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof TimeoutException || cause instanceof InterruptedIOException) {
				return UpstreamException.timeout(this.provider, this.timeout);
			}
			if (cause instanceof ConnectException) {
				return UpstreamException.connection(this.provider, "connection refused", error);
			}
			if (cause instanceof IOException) {
				return UpstreamException.connection(this.provider, String.valueOf(cause.getMessage()), error);
			}
		}
		return UpstreamException.status(this.provider, 502, null, "embedding_model_failed",
				"its embedding model failed to embed the input", null);
	}

	private EmbeddingRequest embeddingRequest(ProviderRequest request) {
		JsonNode body = request.original().body();
		encoding(body);
		EmbeddingOptions.Builder options = EmbeddingOptions.builder().model(request.model());
		JsonNode dimensions = body.get("dimensions");
		if (dimensions != null && !dimensions.isNull()) {
			if (!dimensions.isIntegralNumber() || !dimensions.canConvertToInt() || dimensions.asInt() < 1) {
				throw InvalidRequestException.invalidField("dimensions", "'dimensions' must be a positive integer.");
			}
			options.dimensions(dimensions.asInt());
		}
		return new EmbeddingRequest(inputs(body.path("input")), options.build());
	}

	private List<String> inputs(JsonNode input) {
		if (input.isString()) {
			return List.of(input.stringValue());
		}
		List<String> texts = new ArrayList<>(input.size());
		for (JsonNode text : input) {
			if (!text.isString()) {
				throw InvalidRequestException.invalidField("input", "Provider '" + this.provider
						+ "' embeds text: 'input' must be a string or an array of strings, not tokens.");
			}
			texts.add(text.stringValue());
		}
		return texts;
	}

	/** Whether vectors go back as base64; a 400 for a format OpenAI does not define. */
	private static boolean encoding(JsonNode body) {
		String format = body.path("encoding_format").asString("float");
		return switch (format) {
			case "float" -> false;
			case "base64" -> true;
			default -> throw InvalidRequestException.invalidField("encoding_format",
					"'encoding_format' must be 'float' or 'base64'.");
		};
	}

	private ChatResult result(ProviderRequest request, EmbeddingResponse response) {
		boolean base64 = encoding(request.original().body());
		ObjectNode list = this.mapper.createObjectNode();
		list.put("object", "list");
		ArrayNode data = list.putArray("data");
		List<Embedding> results = response.getResults();
		for (int i = 0; i < results.size(); i++) {
			Embedding embedding = results.get(i);
			ObjectNode item = data.addObject();
			item.put("object", "embedding");
			item.put("index", (embedding.getIndex() != null) ? embedding.getIndex() : i);
			float[] vector = embedding.getOutput();
			if (base64) {
				ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
				for (float value : vector) {
					bytes.putFloat(value);
				}
				item.put("embedding", Base64.getEncoder().encodeToString(bytes.array()));
			}
			else {
				ArrayNode values = item.putArray("embedding");
				for (float value : vector) {
					values.add(value);
				}
			}
		}
		String model = response.getMetadata().getModel();
		list.put("model", (model != null && !model.isBlank()) ? model : request.model());
		org.springframework.ai.chat.metadata.Usage reported = response.getMetadata().getUsage();
		long tokens = (reported != null && reported.getPromptTokens() != null) ? reported.getPromptTokens() : 0;
		list.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
		return new ChatResult(this.mapper.writeValueAsBytes(list), new Usage(tokens, 0), null,
				list.path("model").asString(), ClientApi.EMBEDDINGS);
	}

}
