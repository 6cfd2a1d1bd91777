package dev.junction.mock.embeddings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.junction.mock.completion.MockText;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.RequestFields;
import tools.jackson.databind.JsonNode;

/**
 * An embeddings request.
 *
 * @param model the requested model, echoed in the answer
 * @param inputs each input to embed: its text as UTF-8, or its token ids as 4-byte
 * big-endian integers
 * @param tokens input tokens of each input (estimated for text, counted for token arrays)
 * @param dimensions length of every vector
 * @param base64 whether vectors are sent as base64 (little-endian float32) rather than
 * JSON numbers
 */
record EmbeddingsRequest(String model, List<byte[]> inputs, List<Integer> tokens, int dimensions, boolean base64) {

	/** The most inputs in one request, as OpenAI allows. */
	static final int MAX_INPUTS = 2048;

	/** The longest vector that may be asked for. */
	static final int MAX_DIMENSIONS = 4096;

	/**
	 * Reads a request body.
	 * @throws MockError (400) for a request the API would refuse
	 */
	static EmbeddingsRequest read(JsonNode body) {
		String model = RequestFields.requiredString(body, "model");
		JsonNode input = body.path("input");
		List<byte[]> inputs = new ArrayList<>();
		List<Integer> tokens = new ArrayList<>();
		if (input.isString() || isTokenArray(input)) {
			add(input, inputs, tokens);
		}
		else if (input.isArray() && !input.isEmpty() && input.size() <= MAX_INPUTS) {
			for (JsonNode each : input) {
				if (!each.isString() && !isTokenArray(each)) {
					throw invalidInput();
				}
				add(each, inputs, tokens);
			}
		}
		else {
			throw invalidInput();
		}
		Integer dimensions = RequestFields.positiveInt(body, "dimensions");
		if (dimensions != null && dimensions > MAX_DIMENSIONS) {
			throw MockError.badRequest("dimensions: must be at most " + MAX_DIMENSIONS, "dimensions");
		}
		return new EmbeddingsRequest(model, inputs, tokens,
				(dimensions != null) ? dimensions : defaultDimensions(model), base64(body));
	}

	/**
	 * As OpenAI's models: 3072 for {@code text-embedding-3-large}, 1536 for the others.
	 */
	static int defaultDimensions(String model) {
		return model.contains("3-large") ? 3072 : 1536;
	}

	private static boolean base64(JsonNode body) {
		JsonNode format = body.path("encoding_format");
		if (format.isMissingNode() || format.isNull() || (format.isString() && format.stringValue().equals("float"))) {
			return false;
		}
		if (format.isString() && format.stringValue().equals("base64")) {
			return true;
		}
		throw MockError.badRequest("encoding_format: must be 'float' or 'base64', got " + format, "encoding_format");
	}

	private static boolean isTokenArray(JsonNode node) {
		if (!node.isArray() || node.isEmpty()) {
			return false;
		}
		for (JsonNode token : node) {
			if (!token.isIntegralNumber() || !token.canConvertToInt() || token.intValue() < 0) {
				return false;
			}
		}
		return true;
	}

	private static void add(JsonNode input, List<byte[]> inputs, List<Integer> tokens) {
		if (input.isString()) {
			String text = input.stringValue();
			if (text.isEmpty()) {
				throw MockError.badRequest("input: an input must not be an empty string", "input");
			}
			inputs.add(text.getBytes(StandardCharsets.UTF_8));
			tokens.add(MockText.estimateTokens(text.length()));
			return;
		}
		byte[] ids = new byte[input.size() * 4];
		int at = 0;
		for (JsonNode token : input) {
			int id = token.intValue();
			ids[at++] = (byte) (id >>> 24);
			ids[at++] = (byte) (id >>> 16);
			ids[at++] = (byte) (id >>> 8);
			ids[at++] = (byte) id;
		}
		inputs.add(ids);
		tokens.add(input.size());
	}

	private static MockError invalidInput() {
		return MockError.badRequest("input: Field required (a non-empty string, an array of up to " + MAX_INPUTS
				+ " strings, an array of token ids, or an array of such arrays)", "input");
	}

}
