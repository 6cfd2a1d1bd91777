package dev.junction.gateway.rpc;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/** JSON-RPC 2.0 response objects: exactly one of {@code result} or {@code error}, and the request's id. */
final class JsonRpcResponses {

	private JsonRpcResponses() {
	}

	static ObjectNode result(ObjectMapper mapper, JsonNode id, JsonNode result) {
		ObjectNode response = mapper.createObjectNode().put("jsonrpc", "2.0");
		response.set("result", result);
		response.set("id", id);
		return response;
	}

	static ObjectNode error(ObjectMapper mapper, JsonNode id, RpcError error) {
		ObjectNode response = mapper.createObjectNode().put("jsonrpc", "2.0");
		ObjectNode body = response.putObject("error").put("code", error.code()).put("message", error.message());
		if (error.data() != null) {
			body.set("data", error.data());
		}
		response.set("id", id);
		return response;
	}

}
