package dev.junction.mock.embeddings;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.MockCall;
import dev.junction.mock.pipeline.RequestBodies;
import dev.junction.mock.pipeline.Responder;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * OpenAI Embeddings: {@code POST /v1/embeddings}. One deterministic unit vector per
 * input, as JSON numbers or, with {@code encoding_format: base64}, as base64 of
 * little-endian float32; usage counts the input tokens.
 */
public final class EmbeddingsResponder implements Responder {

	@Override
	public Mono<ServerResponse> respond(MockCall call, byte[] body) {
		EmbeddingsRequest request = EmbeddingsRequest.read(RequestBodies.object(body));
		return call.json(write(request).getBytes(StandardCharsets.UTF_8));
	}

	static String write(EmbeddingsRequest request) {
		int count = request.inputs().size();
		StringBuilder json = new StringBuilder(64 + count * request.dimensions() * (request.base64() ? 6 : 12))
			.append("{\"object\":\"list\",\"data\":[");
		long tokens = 0;
		for (int index = 0; index < count; index++) {
			float[] vector = EmbeddingVectors.of(request.inputs().get(index), request.dimensions());
			json.append((index > 0) ? "," : "")
				.append("{\"object\":\"embedding\",\"index\":")
				.append(index)
				.append(",\"embedding\":");
			if (request.base64()) {
				json.append('"').append(base64(vector)).append('"');
			}
			else {
				floats(json, vector);
			}
			json.append('}');
			tokens += request.tokens().get(index);
		}
		json.append("],\"model\":");
		return JsonText.string(json, request.model())
			.append(",\"usage\":{\"prompt_tokens\":")
			.append(tokens)
			.append(",\"total_tokens\":")
			.append(tokens)
			.append("}}")
			.toString();
	}

	private static void floats(StringBuilder json, float[] vector) {
		json.append('[');
		for (int i = 0; i < vector.length; i++) {
			json.append((i > 0) ? "," : "").append(vector[i]);
		}
		json.append(']');
	}

	private static String base64(float[] vector) {
		ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
		bytes.asFloatBuffer().put(vector);
		return Base64.getEncoder().encodeToString(bytes.array());
	}

}
