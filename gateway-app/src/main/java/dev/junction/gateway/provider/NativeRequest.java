package dev.junction.gateway.provider;

import java.util.Map;

import tools.jackson.databind.node.ObjectNode;

/**
 * A request as the client sent it in an API other than Chat Completions, for a provider
 * that speaks that API. Never changed once made.
 *
 * @param api the API it was sent in
 * @param body the client's JSON
 * @param headers the client's protocol headers that go upstream with it (lower-case
 * names)
 */
public record NativeRequest(ClientApi api, ObjectNode body, Map<String, String> headers) {

	public NativeRequest {
		headers = Map.copyOf(headers);
	}

}
