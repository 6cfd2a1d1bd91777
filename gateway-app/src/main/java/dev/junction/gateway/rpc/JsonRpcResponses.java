package dev.junction.gateway.rpc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON-RPC 2.0 response objects: exactly one of {@code result} or {@code error}, and the
 * request's id.
 */
final class JsonRpcResponses {

	private JsonRpcResponses() {
	}

	static ObjectNode result(ObjectMapper mapper, JsonNode id, JsonNode result) {
		ObjectNode response = mapper.createObjectNode().put("jsonrpc", "2.0");
		response.set("result", result);
		response.set("id", id);
		return response;
	}

	/**
	 * An error response. A standard code carries its standard title as {@code message},
	 * the error's own message going into {@code data.message} with the other details.
	 */
	static ObjectNode error(ObjectMapper mapper, JsonNode id, RpcError error) {
		ObjectNode response = mapper.createObjectNode().put("jsonrpc", "2.0");
		String title = error.title();
		ObjectNode body = response.putObject("error")
			.put("code", error.code())
			.put("message", (title != null) ? title : error.message());
		if (title != null) {
			ObjectNode data = body.putObject("data").put("message", error.message());
			if (error.data() instanceof ObjectNode details) {
				data.setAll(details);
			}
		}
		else if (error.data() != null) {
			body.set("data", error.data());
		}
		response.set("id", id);
		return response;
	}

}
