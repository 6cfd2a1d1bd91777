package dev.junction.mock.pipeline;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses request bodies, answering 400 in the provider's words when one is not a JSON
 * object.
 */
public final class RequestBodies {

	private static final JsonMapper JSON = JsonMapper.shared();

	private RequestBodies() {
	}

	/**
	 * The body as a JSON object.
	 * @throws MockError (400) when it is empty, not JSON, or not an object
	 */
	public static JsonNode object(byte[] body) {
		JsonNode json;
		try {
			json = (body.length > 0) ? JSON.readTree(body) : null;
		}
		catch (JacksonException ex) {
			throw MockError.badRequest("We could not parse the JSON body of your request: " + ex.getOriginalMessage(),
					null);
		}
		if (json == null || !json.isObject()) {
			throw MockError.badRequest("The request body must be a JSON object.", null);
		}
		return json;
	}

}
