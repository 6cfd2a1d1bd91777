package dev.junction.gateway.rpc;

import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.GatewayApplication;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code rpc.discover}: an OpenRPC 1.3 document generated from the procedures that
 * dispatch.
 */
public final class OpenRpc {

	private OpenRpc() {
	}

	/** The given procedures plus {@code rpc.discover}, which describes them all. */
	public static List<Procedure> withDiscover(List<Procedure> procedures) {
		List<Procedure> all = new ArrayList<>(procedures);
		ObjectNode[] document = new ObjectNode[1];
		all.add(Procedure.of("rpc.discover", "This document: every method, its params and its result (OpenRPC).",
				Procedure.Type.QUERY, List.of(), Schemas.type("object"), (arguments, call) -> Mono.just(document[0])));
		document[0] = document(all);
		return List.copyOf(all);
	}

	static ObjectNode document(List<Procedure> procedures) {
		JsonNodeFactory json = JsonNodeFactory.instance;
		ObjectNode document = json.objectNode().put("openrpc", "1.3.2");
		String version = GatewayApplication.class.getPackage().getImplementationVersion();
		document.putObject("info")
			.put("title", "Junction gateway")
			.put("description", "JSON-RPC 2.0 at POST /rpc; the same procedures over tRPC at /trpc/{procedure}.")
			.put("version", (version != null) ? version : "development");
		document.putArray("servers").addObject().put("name", "gateway").put("url", "/rpc");
		ArrayNode methods = document.putArray("methods");
		for (Procedure procedure : procedures) {
			ObjectNode method = methods.addObject()
				.put("name", procedure.name())
				.put("summary", procedure.summary())
				.put("paramStructure", "either");
			ArrayNode params = method.putArray("params");
			for (Param param : procedure.params()) {
				params.addObject()
					.put("name", param.name())
					.put("description", param.description())
					.put("required", param.required())
					.set("schema", Schemas.of(param));
			}
			method.putObject("result").put("name", "result").set("schema", (JsonNode) procedure.result().deepCopy());
			method.put("x-trpc-type", procedure.type().trpcName());
			method.put("x-admin-only", procedure.adminOnly());
		}
		return document;
	}

}
